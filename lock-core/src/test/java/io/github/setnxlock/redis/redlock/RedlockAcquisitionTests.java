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

package io.github.setnxlock.redis.redlock;

import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How one Redlock acquisition is decided on its nodes' answers, without Redis.
 *
 * @author setnx-lock authors
 */
class RedlockAcquisitionTests {

	private static final List<String> NAMES = List.of("a:1", "b:2", "c:3");

	private static final LockKey KEY = LockKey.of("lock:", "decided");

	private static final Attempt YES = Attempt.acquired(new Lease("token", Lease.NOT_DRAWN, System.nanoTime(), 30_000));

	private static final Attempt HELD = Attempt.held(20_000, true);

	@Test
	void aMajorityOfYesAcquires() {
		Attempt attempt = decide(restartsOff(), YES, YES, HELD);
		assertThat(attempt.acquired()).isTrue();
		assertThat(attempt.lease().nodeMask()).isEqualTo(0b011);
	}

	@Test
	void yesAnswersOfNodesNotYetCheckedForARestartDoNotCount() {
		// Never read: each may have restarted within the delay.
		RedlockRestarts unchecked = new RedlockRestarts(Collections.nCopies(3, (RedisGateway) null), NAMES, 1000, 100);
		assertThat(unchecked.quarantined()).isEqualTo(0b111);
		Attempt attempt = decide(unchecked, YES, YES, YES);
		assertThat(attempt.acquired()).isFalse();
	}

	@Test
	void aHolderOnAMajorityIsWaitedForUntilItAnnouncesItsRelease() {
		Attempt attempt = decide(restartsOff(), HELD, HELD, HELD);
		assertThat(attempt.acquired()).isFalse();
		assertThat(attempt.holderAnnounces()).isTrue();
		assertThat(attempt.holderTtlMillis()).isEqualTo(20_000);
	}

	private static RedlockRestarts restartsOff() {
		return new RedlockRestarts(Collections.nCopies(3, (RedisGateway) null), NAMES, 0, 100);
	}

	private static Attempt decide(RedlockRestarts restarts, Attempt... answers) {
		RedlockAcquisition acquisition = new RedlockAcquisition(new RedlockCleanups(List.of(), NAMES, 100), null,
				restarts, answers.length, KEY, "token", 30_000);
		return acquisition
			.decide(new Tally<>(NAMES, answers, new Throwable[answers.length], new boolean[answers.length]));
	}

}
