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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link HistoryChecker} on histories made up here, so that each of its rules is seen to
 * fail on the breach it names and to stay quiet on a sound history. Times are in
 * microseconds; every section reads the counter and writes it plus one.
 *
 * @author setnx-lock authors
 */
class HistoryCheckerTests {

	@Test
	void aSoundHistoryHasNoViolation() {
		List<HistoryRecord> history = List.of(section("p0", "a", 1, 0, 10, 0), section("p1", "a", 2, 10, 20, 1),
				section("p2", "a", 3, 25, 30, 2), section("p0", "b", 1, 5, 15, 0));
		assertThat(HistoryChecker.violations(history)).isEmpty();
	}

	@Test
	void twoHoldersWhoBothBelievedTheyHeldTheLockOverlapping() {
		List<HistoryRecord> history = List.of(section("p0", "a", 1, 0, 10, 0), section("p1", "a", 2, 9, 20, 1));
		assertThat(HistoryChecker.violations(history)).singleElement()
			.asString()
			.startsWith("two holders of 'a' at once");
	}

	@Test
	void anOverlapWithAHolderThatKnewItHadLostTheLockIsNoViolation() {
		HistoryRecord lost = new HistoryRecord("p0", 0, "a", 1, 0, 10, true, false, 0, false, "lost");
		List<HistoryRecord> history = List.of(lost, section("p1", "a", 2, 5, 20, 0));
		assertThat(HistoryChecker.violations(history)).isEmpty();
	}

	@Test
	void sectionsOfDifferentKeysMayOverlap() {
		List<HistoryRecord> history = List.of(section("p0", "a", 1, 0, 10, 0), section("p1", "b", 1, 5, 20, 0));
		assertThat(HistoryChecker.violations(history)).isEmpty();
	}

	@Test
	void aTokenHandedOutTwiceForOneKey() {
		List<HistoryRecord> history = List.of(section("p0", "a", 7, 0, 10, 0), section("p1", "a", 7, 20, 30, 1));
		assertThat(HistoryChecker.violations(history))
			.anySatisfy((violation) -> assertThat(violation).startsWith("token 7 of 'a' handed out twice"));
	}

	@Test
	void tokensThatGoDownInTheOrderTheSectionsBegan() {
		List<HistoryRecord> history = List.of(section("p0", "a", 5, 0, 10, 0), section("p1", "a", 4, 20, 30, 1));
		// Both orders see it: these holders asked for their tokens as they took the lock.
		assertThat(HistoryChecker.violations(history)).hasSize(2)
			.allSatisfy((violation) -> assertThat(violation).startsWith("tokens of 'a' went down"));
	}

	@Test
	void aTokenAskedForLateThatPassesTheNextHoldersIsAViolation() {
		// Taken first, asked for its token after the next holder had taken the lock and
		// drawn its own: a stale holder that was given a token.
		HistoryRecord stale = new HistoryRecord("p0", 0, "a", 6, 40, 50, true, false, 1, true, "lost", 0);
		HistoryRecord next = new HistoryRecord("p1", 0, "a", 5, 20, 30, true, true, 0, true, "ok", 10);
		assertThat(HistoryChecker.violations(List.of(stale, next))).anySatisfy((violation) -> assertThat(violation)
			.startsWith("tokens of 'a' went down in the order the locks were taken"));
	}

	@Test
	void aTokenAskedForLateWithinItsHoldIsNoViolation() {
		HistoryRecord late = new HistoryRecord("p0", 0, "a", 5, 20, 30, true, true, 0, true, "ok", 0);
		HistoryRecord next = new HistoryRecord("p1", 0, "a", 6, 40, 50, true, true, 1, true, "ok", 35);
		assertThat(HistoryChecker.violations(List.of(late, next))).isEmpty();
	}

	@Test
	void aSectionNotHeldAtEntryDoesNotCountForTokenOrder() {
		// A holder paused between taking the lock and noting the time notes it after its
		// successor began, and knows it no longer holds the lock.
		HistoryRecord late = new HistoryRecord("p0", 0, "a", 4, 20, 30, false, false, -1, false, "lost");
		List<HistoryRecord> history = List.of(section("p1", "a", 5, 0, 10, 0), late);
		assertThat(HistoryChecker.violations(history)).isEmpty();
	}

	@Test
	void twoAcceptedWritesOverTheSameValueAreALostUpdate() {
		// Neither section overlaps the other by the holders' reckoning, but the store
		// accepted both writes of 1: what the first wrote was overwritten.
		HistoryRecord first = new HistoryRecord("p0", 0, "a", 1, 0, 10, true, false, 0, true, "lost");
		List<HistoryRecord> history = List.of(first, section("p1", "a", 2, 5, 20, 0));
		assertThat(HistoryChecker.violations(history)).singleElement()
			.asString()
			.startsWith("update of 'a' lost: both wrote 1");
	}

	@Test
	void aRefusedWriteOverTheSameValueIsNoLostUpdate() {
		HistoryRecord refused = new HistoryRecord("p0", 0, "a", 1, 0, 10, true, false, 0, false, "lost");
		List<HistoryRecord> history = List.of(refused, section("p1", "a", 2, 5, 20, 0));
		assertThat(HistoryChecker.violations(history)).isEmpty();
	}

	@Test
	void aRecordSurvivesItsLine() {
		HistoryRecord record = new HistoryRecord("p2", 1, "history:0", 42, 100, 200, true, false, 7, false, "lost");
		assertThat(HistoryRecord.parse(record.line())).isEqualTo(record);
	}

	/**
	 * A section held from start to end whose write was accepted.
	 */
	private static HistoryRecord section(String process, String key, long token, long entered, long exited, long read) {
		return new HistoryRecord(process, 0, key, token, entered, exited, true, true, read, true, "ok");
	}

}
