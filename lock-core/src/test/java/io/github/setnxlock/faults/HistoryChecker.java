/*
 * Copyright 2026 the setnx-lock authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.github.setnxlock.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a merged history of critical sections, key by key:
 * <ul>
 * <li>fencing tokens are unique, and increase in the order the sections began (counting
 * the sections whose holder still held the lock just after noting its start: a holder
 * paused between taking the lock and noting the time may note it after its successor);
 * and in the order the locks were taken, also where the token was asked for late in the
 * hold: a holder whose key is someone else's by then must get no token, and a token drawn
 * for it anyway would come after the next holder's;
 * <li>no two sections whose holders believed they held the lock all along overlap in
 * time;
 * <li>no update of the protected counter is lost: two fenced writes the store accepted
 * never read the same value (each wrote what it read plus one, so the second would have
 * written over the first).
 * </ul>
 * Each breach is a violation, described so that a failing test shows the records.
 *
 * @author setnx-lock authors
 */
final class HistoryChecker {

	private HistoryChecker() {
	}

	/**
	 * Check a history.
	 * @param records the critical sections of every process
	 * @return the violations found, empty when the history is sound
	 */
	static List<String> violations(List<HistoryRecord> records) {
		Map<String, List<HistoryRecord>> byKey = new TreeMap<>();
		records.forEach((record) -> byKey.computeIfAbsent(record.key(), (key) -> new ArrayList<>()).add(record));
		List<String> violations = new ArrayList<>();
		byKey.forEach((key, sections) -> {
			Map<Long, HistoryRecord> writers = new HashMap<>();
			for (HistoryRecord section : sections) {
				HistoryRecord earlier = section.written() ? writers.putIfAbsent(section.read(), section) : null;
				if (earlier != null) {
					violations.add("update of '" + key + "' lost: both wrote " + (section.read() + 1) + ": " + earlier
							+ " and " + section);
				}
			}
			Set<Long> tokens = new HashSet<>();
			for (HistoryRecord section : sections) {
				if (!tokens.add(section.token())) {
					violations.add("token " + section.token() + " of '" + key + "' handed out twice: " + section);
				}
			}
			List<HistoryRecord> byEntry = sections.stream()
				.filter(HistoryRecord::heldAtEntry)
				.sorted(Comparator.comparingLong(HistoryRecord::entered).thenComparingLong(HistoryRecord::token))
				.toList();
			for (int i = 1; i < byEntry.size(); i++) {
				if (byEntry.get(i).token() <= byEntry.get(i - 1).token()) {
					violations
						.add("tokens of '" + key + "' went down: " + byEntry.get(i - 1) + " then " + byEntry.get(i));
				}
			}
			List<HistoryRecord> byAcquisition = byEntry.stream()
				.sorted(Comparator.comparingLong(HistoryRecord::acquired).thenComparingLong(HistoryRecord::token))
				.toList();
			for (int i = 1; i < byAcquisition.size(); i++) {
				if (byAcquisition.get(i).token() <= byAcquisition.get(i - 1).token()) {
					violations.add("tokens of '" + key + "' went down in the order the locks were taken: "
							+ byAcquisition.get(i - 1) + " then " + byAcquisition.get(i));
				}
			}
			List<HistoryRecord> believed = byEntry.stream().filter(HistoryRecord::believedHeld).toList();
			for (int i = 1; i < believed.size(); i++) {
				if (believed.get(i).entered() < believed.get(i - 1).exited()) {
					violations.add(
							"two holders of '" + key + "' at once: " + believed.get(i - 1) + " and " + believed.get(i));
				}
			}
		});
		return violations;
	}

}
