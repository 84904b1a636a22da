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

package io.github.setnxlock.redis;

import java.time.Duration;

import static org.awaitility.Awaitility.await;

import io.github.setnxlock.redis.engine.KeyState;

/**
 * Handshakes that let a test act once another thread has reached the point it tests,
 * instead of sleeping and hoping it has.
 *
 * @author setnx-lock authors
 */
final class Handshakes {

	private Handshakes() {
	}

	/**
	 * Wait until a thread of the registry waits for a release message of the key: it has
	 * asked Redis, found the key held, and parked. A release from then on exercises the
	 * wake-up, not an acquisition that merely came after the release.
	 * @param registry the waiter's registry
	 * @param redisKey the lock's Redis key, prefix included
	 */
	static void awaitWaiterOnRedis(SetnxLockRegistry registry, String redisKey) {
		await("a waiter parked on " + redisKey).atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> {
				KeyState state = registry.engine().stats().keyState(redisKey);
				return state != null && state.releaseWaiters() > 0;
			});
	}

}
