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

package io.github.setnxlock.redis.engine;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bound on local hand-offs of one key ({@link LocalHandoff.Run}), on times the test
 * gives: while nobody elsewhere is known to wait, at most the bound between reads of the
 * key for a waiter's mark; once one is known, at most the bound more or the time bound,
 * whichever comes first; and a key taken in Redis starts a new run that knows of a waiter
 * elsewhere when the last release of ours was announced to one.
 *
 * @author setnx-lock authors
 */
class HandoffRunTests {

	private static final int MAX_HANDOFFS = 3;

	private static final long MAX_TIME = Duration.ofMillis(50).toNanos();

	private static final long START = 1_000_000_000_000L;

	private final LocalHandoff.Run run = new LocalHandoff.Run();

	@Test
	void withNobodyKnownElsewhereAtMostTheBoundPassesBetweenReadsForAMark() {
		assertThat(handOffs(START)).isEqualTo(MAX_HANDOFFS);
		// A read that found no mark lets another bound's worth through.
		assertThat(this.run.startCheck()).isTrue();
		assertThat(this.run.startCheck()).as("one read out at a time").isFalse();
		this.run.checked(false, START);
		assertThat(handOffs(START)).isEqualTo(MAX_HANDOFFS);
	}

	@Test
	void onceAWaiterElsewhereIsKnownTheBoundCountsFromThenOn() {
		this.run.oneMore(MAX_HANDOFFS, MAX_TIME, START);
		assertThat(this.run.startCheck()).isTrue();
		this.run.checked(true, START);
		assertThat(this.run.remoteKnown()).isTrue();
		assertThat(this.run.startCheck()).as("nothing left to find out").isFalse();
		assertThat(handOffs(START)).isEqualTo(MAX_HANDOFFS);
	}

	@Test
	void onceAWaiterElsewhereIsKnownTheTimeBoundEndsTheRunEvenBelowTheCount() {
		this.run.checked(true, START);
		assertThat(this.run.oneMore(MAX_HANDOFFS, MAX_TIME, START + MAX_TIME - 1)).isTrue();
		assertThat(this.run.oneMore(MAX_HANDOFFS, MAX_TIME, START + MAX_TIME)).isFalse();
	}

	@Test
	void aKeyTakenInRedisStartsARunThatKnowsOfAWaiterWhenTheLastReleaseWasAnnounced() {
		this.run.checked(true, START);
		handOffs(START);
		this.run.releasedInRedis(false);
		this.run.takenInRedis(START + 1, false);
		assertThat(this.run.remoteKnown()).isFalse();
		assertThat(handOffs(START + 1)).isEqualTo(MAX_HANDOFFS);
		this.run.releasedInRedis(true);
		this.run.takenInRedis(START + 2, false);
		assertThat(this.run.remoteKnown()).isTrue();
		// So does a key that was taken after waiting behind a holder elsewhere.
		this.run.releasedInRedis(false);
		this.run.takenInRedis(START + 3, true);
		assertThat(this.run.remoteKnown()).isTrue();
	}

	/**
	 * Hand off at the given time until the run refuses; return how many it allowed.
	 */
	private int handOffs(long nowNanos) {
		int allowed = 0;
		while (this.run.oneMore(MAX_HANDOFFS, MAX_TIME, nowNanos)) {
			allowed++;
			assertThat(allowed).as("hand-offs allowed in a row").isLessThanOrEqualTo(MAX_HANDOFFS);
		}
		return allowed;
	}

}
