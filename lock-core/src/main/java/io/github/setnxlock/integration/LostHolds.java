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
package io.github.setnxlock.integration;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

import io.github.setnxlock.LockLostException;

/**
 * The unlocks each thread still owes for holds it lost and that an acquisition set aside
 * to take the key again, with the loss each will report. Kept per thread because holds
 * are, and apart from the handles, which may be collected and replaced between a lock and
 * its unlock.
 *
 * @author setnx-lock authors
 */
final class LostHolds {

	private final ThreadLocal<Map<String, Deque<LockLostException>>> owed = new ThreadLocal<>();

	void add(String key, int unlocks, LockLostException loss) {
		Map<String, Deque<LockLostException>> byKey = this.owed.get();
		if (byKey == null) {
			byKey = new HashMap<>();
			this.owed.set(byKey);
		}
		Deque<LockLostException> losses = byKey.computeIfAbsent(key, (k) -> new ArrayDeque<>());
		for (int i = 0; i < unlocks; i++) {
			// Innermost first: the unlocks that come next belong to the latest hold.
			losses.push(loss);
		}
	}

	/**
	 * Return the loss the current thread's next unlock of the key reports, without paying
	 * it.
	 * @param key the lock's key
	 * @return the loss, or {@code null} if no unlock is owed
	 */
	LockLostException peek(String key) {
		Map<String, Deque<LockLostException>> byKey = this.owed.get();
		Deque<LockLostException> losses = (byKey != null) ? byKey.get(key) : null;
		return (losses != null) ? losses.peek() : null;
	}

	/**
	 * Pay one unlock the current thread owes for the key.
	 * @param key the lock's key
	 * @return the loss it reports, or {@code null} if none was owed
	 */
	LockLostException pay(String key) {
		Map<String, Deque<LockLostException>> byKey = this.owed.get();
		Deque<LockLostException> losses = (byKey != null) ? byKey.get(key) : null;
		if (losses == null) {
			return null;
		}
		LockLostException loss = losses.pop();
		if (losses.isEmpty()) {
			byKey.remove(key);
			if (byKey.isEmpty()) {
				this.owed.remove();
			}
		}
		return loss;
	}

}
