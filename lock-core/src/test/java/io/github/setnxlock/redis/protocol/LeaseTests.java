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

package io.github.setnxlock.redis.protocol;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease's deadline, on times the test gives: it counts from when the command was sent,
 * less a drift margin of 1% of the validity and 2 ms, wraps as {@link System#nanoTime()}
 * does, and never shows the value it holds in its text.
 *
 * @author setnx-lock authors
 */
class LeaseTests {

	private static final long SENT = 1_000_000_000_000L;

	@Test
	void theDeadlineIsTheValidityFromTheSendingLessTheDriftMargin() {
		Lease lease = new Lease("token", Lease.NOT_DRAWN, SENT, 30_000);
		long margin = Duration.ofMillis(300 + 2).toNanos();
		assertThat(lease.deadlineNanos()).isEqualTo(SENT + Duration.ofSeconds(30).toNanos() - margin);
		assertThat(lease.isExpired(lease.deadlineNanos() - 1)).isFalse();
		assertThat(lease.isExpired(lease.deadlineNanos())).isTrue();
		assertThat(lease.remainingMillis(SENT)).isEqualTo(30_000 - 302);
		assertThat(lease.remainingMillis(lease.deadlineNanos() + 1)).isZero();
	}

	@Test
	void aShortLeaseStillKeepsTheFixedMargin() {
		Lease lease = new Lease("token", Lease.NOT_DRAWN, SENT, 100);
		assertThat(lease.deadlineNanos()).isEqualTo(SENT + Duration.ofMillis(100 - 1 - 2).toNanos());
	}

	@Test
	void deadlinesCompareAcrossTheWrapOfTheClock() {
		long sent = Long.MAX_VALUE - Duration.ofSeconds(1).toNanos();
		Lease lease = new Lease("token", Lease.NOT_DRAWN, sent, 30_000);
		// The deadline lies past the wrap: a reading before it is not expired.
		assertThat(lease.deadlineNanos()).isNegative();
		assertThat(lease.isExpired(sent + Duration.ofSeconds(10).toNanos())).isFalse();
		assertThat(lease.isExpired(sent + Duration.ofSeconds(30).toNanos())).isTrue();
	}

	@Test
	void itsTextNeverShowsTheValueItHolds() {
		Lease lease = new Lease("secret-owner-token", 7, SENT, 30_000, 0b101);
		assertThat(lease.toString()).doesNotContain("secret").contains("fencingToken=7").contains("nodes=101");
		assertThat(lease.nodeCount()).isEqualTo(2);
	}

}
