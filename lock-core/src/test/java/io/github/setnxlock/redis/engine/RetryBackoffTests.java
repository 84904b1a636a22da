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

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.setnxlock.redis.engine.AcquireLoop.RetryBackoff;

/**
 * The pauses between attempts behind another holder ({@link RetryBackoff}), over many
 * draws of their jitter: each lies within half to one and a half of a base that doubles
 * from the first pause up to the cap, never past the holder's claim by more than a
 * millisecond, and never under a millisecond.
 *
 * @author setnx-lock authors
 */
class RetryBackoffTests {

	private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

	/** Fresh back-offs per test, for many draws of the jitter. */
	private static final int ROUNDS = 500;

	@Test
	void pausesDoubleUpToTheCapWithinTheirJitter() {
		for (int round = 0; round < ROUNDS; round++) {
			RetryBackoff backoff = new RetryBackoff(RetryBackoff.MAX_PAUSE_NANOS);
			long base = RetryBackoff.FIRST_PAUSE_NANOS;
			for (int attempt = 0; attempt < 12; attempt++) {
				long pause = backoff.nextPauseNanos(-1);
				assertThat(pause).as("pause %d", attempt).isBetween(Math.max(MILLI, base / 2), base + base / 2 - 1);
				base = Math.min(base * 2, RetryBackoff.MAX_PAUSE_NANOS);
			}
		}
	}

	@Test
	void aPauseEndsJustAfterTheHoldersClaimAndNeverUnderAMillisecond() {
		for (int round = 0; round < ROUNDS; round++) {
			RetryBackoff backoff = new RetryBackoff(RetryBackoff.MAX_PAUSE_NANOS);
			for (int attempt = 0; attempt < 8; attempt++) {
				backoff.nextPauseNanos(-1);
			}
			assertThat(backoff.nextPauseNanos(10)).isLessThanOrEqualTo(11 * MILLI);
			assertThat(backoff.nextPauseNanos(0)).isEqualTo(MILLI);
		}
	}

	@Test
	void theShortCapKeepsPausesWithinAFewMilliseconds() {
		for (int round = 0; round < ROUNDS; round++) {
			RetryBackoff backoff = new RetryBackoff(RetryBackoff.SHORT_MAX_PAUSE_NANOS);
			for (int attempt = 0; attempt < 8; attempt++) {
				assertThat(backoff.nextPauseNanos(-1)).isLessThan(RetryBackoff.SHORT_MAX_PAUSE_NANOS * 3 / 2);
			}
		}
	}

}
