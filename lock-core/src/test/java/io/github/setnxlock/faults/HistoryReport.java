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

import java.util.List;

/**
 * The figures of a {@link HistoryRun}.
 *
 * @param sections critical sections entered
 * @param believedHeld sections whose holder held the lock by its own reckoning from start
 * to end
 * @param lostAtUnlock sections whose {@code unlock()} reported the lock lost
 * @param takeovers acquisitions that took over an expired holder's lock
 * @param timeouts acquisitions that ran out of wait time
 * @param errors acquisitions that failed (Redis down or out of reach)
 * @param lostBeforeEntry acquisitions whose lease ended before the section began
 * @param staleRejected reads and writes the witness refused for a stale fencing token
 * @param lostUpdates fenced writes that overwrote another's (must be 0)
 * @param unfencedLostUpdates the same without fencing: what fencing saved
 * @param violations what the {@link HistoryChecker} found (must be empty)
 * @param maxToken the highest fencing token handed out
 * @param records the critical sections themselves
 * @author setnx-lock authors
 */
record HistoryReport(long sections, long believedHeld, long lostAtUnlock, long takeovers, long timeouts, long errors,
		long lostBeforeEntry, long staleRejected, long lostUpdates, long unfencedLostUpdates, List<String> violations,
		long maxToken, List<HistoryRecord> records) {

	static HistoryReport of(List<HistoryRecord> records, List<String> summaries, List<Witness.Tally> tallies,
			List<String> violations) {
		long takeovers = 0;
		long timeouts = 0;
		long errors = 0;
		long lostBeforeEntry = 0;
		for (String summary : summaries) {
			String[] fields = summary.split(" ");
			takeovers += Long.parseLong(fields[3]);
			timeouts += Long.parseLong(fields[4]);
			errors += Long.parseLong(fields[5]);
			lostBeforeEntry += Long.parseLong(fields[6]);
		}
		long unfenced = tallies.stream().mapToLong(Witness.Tally::unfenced).sum();
		return new HistoryReport(records.size(), records.stream().filter(HistoryRecord::believedHeld).count(),
				records.stream().filter((record) -> "lost".equals(record.unlockFound())).count(), takeovers, timeouts,
				errors, lostBeforeEntry, tallies.stream().mapToLong(Witness.Tally::stale).sum(),
				tallies.stream().mapToLong(Witness.Tally::lostUpdates).sum(), records.size() - unfenced,
				List.copyOf(violations), records.stream().mapToLong(HistoryRecord::token).max().orElse(0),
				List.copyOf(records));
	}

	/**
	 * Return the figures as one line for the test's output.
	 * @param scenario what the run did
	 * @return the line
	 */
	String summary(String scenario) {
		return String.format(
				"%s: sections %d (held throughout %d, lost at unlock %d), takeovers %d, timeouts %d, errors %d,"
						+ " lost before entry %d,"
						+ " stale operations rejected %d, lost updates %d (without fencing %d), violations %d",
				scenario, this.sections, this.believedHeld, this.lostAtUnlock, this.takeovers, this.timeouts,
				this.errors, this.lostBeforeEntry, this.staleRejected, this.lostUpdates, this.unfencedLostUpdates,
				this.violations.size());
	}

}
