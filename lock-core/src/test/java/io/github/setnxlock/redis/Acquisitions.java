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

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;

/**
 * A waiter of the tests that measure how soon a release reaches it.
 *
 * @author setnx-lock authors
 */
final class Acquisitions {

	private Acquisitions() {
	}

	/**
	 * Wait for a lock, take it and give it back. A call that fails because Redis is out
	 * of reach for a while (a restart, a failover) is made again, as a caller may.
	 * @param lock the lock
	 * @param wait how long to try in all
	 * @param tokenAbove a fencing token the acquisition's must exceed
	 * @return the {@link System#nanoTime()} of the acquisition, or {@code -1} if the wait
	 * ended first or the token was not above
	 * @throws InterruptedException if interrupted while waiting
	 */
	static long acquiredAt(LeasedLock lock, Duration wait, long tokenAbove) throws InterruptedException {
		long end = System.nanoTime() + wait.toNanos();
		for (long left = wait.toNanos(); left > 0; left = end - System.nanoTime()) {
			try {
				if (lock.tryLock(Duration.ofNanos(left))) {
					long acquiredAt = System.nanoTime();
					long token = lock.fencingToken();
					lock.unlock();
					return (token > tokenAbove) ? acquiredAt : -1;
				}
			}
			catch (LockAccessException ex) {
				// A call out at a Redis that went away; try again.
			}
		}
		return -1;
	}

}
