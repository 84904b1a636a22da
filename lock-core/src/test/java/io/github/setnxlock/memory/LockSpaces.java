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
package io.github.setnxlock.memory;

import io.github.setnxlock.redis.engine.KeyState;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * What a test reads of a {@link LockSpace}, as a test of the Redis registry reads Redis:
 * the keys held, and the owners that wait in the registries on the space.
 *
 * @author setnx-lock authors
 */
final class LockSpaces {

	private LockSpaces() {
	}

	/** Whether a key is held now. */
	static boolean isLocked(LockSpace space, String key) {
		return space.call((now) -> space.live(LockKey.of("", key), now) != null).join();
	}

	/** Return how many lock keys are held now. */
	static int keyCount(LockSpace space) {
		return space.call((now) -> {
			space.keys.values().removeIf((entry) -> entry.hasEnded(now));
			return space.keys.size();
		}).join();
	}

	/** Return how many owners of the registries on the space wait for a key. */
	static int waiters(LockSpace space, String key) {
		int waiters = 0;
		for (LockEngine engine : space.engines) {
			KeyState state = engine.stats().keyState(key);
			waiters += (state != null) ? state.waiting() : 0;
		}
		return waiters;
	}

	/** Return how many owners of the registries on the space wait for any key. */
	static int waiterCount(LockSpace space) {
		return space.engines.stream().mapToInt((engine) -> engine.stats().waiting()).sum();
	}

	/**
	 * Return how many keys have state in an engine though nobody holds or waits for them.
	 */
	static int idleKeyCount(LockSpace space) {
		return space.engines.stream().mapToInt((engine) -> engine.stats().idleKeys()).sum();
	}

}
