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

import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;

/**
 * A critical section that notices when two threads are in it at once, and counts its
 * entries with a separate read and write, so that entries get lost unless a lock keeps
 * the threads apart.
 *
 * @author setnx-lock authors
 */
final class CriticalSection {

	private final AtomicInteger inside = new AtomicInteger();

	private final AtomicInteger overlaps = new AtomicInteger();

	private int entries;

	/**
	 * Go through the section; the caller is expected to hold a lock.
	 */
	void enter() {
		if (this.inside.incrementAndGet() != 1) {
			this.overlaps.incrementAndGet();
		}
		int read = this.entries;
		Thread.yield();
		this.entries = read + 1;
		this.inside.decrementAndGet();
	}

	/**
	 * Take the lock, go through the section, release the lock.
	 * @param lock the lock
	 */
	void enterUnder(LeasedLock lock) {
		lock.lock();
		try {
			enter();
		}
		finally {
			lock.unlock();
		}
	}

	int entries() {
		return this.entries;
	}

	int overlaps() {
		return this.overlaps.get();
	}

}
