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

package io.github.setnxlock.benchmarks;

/**
 * One lock implementation under measurement, connected to the benchmark's
 * {@code redis-server}. Each worker thread asks for its {@link KeyLock} once, outside the
 * timed loop, so that only acquire and release are measured.
 *
 * @author setnx-lock authors
 */
public interface Contender extends AutoCloseable {

	/**
	 * Return the name printed in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Return a lock on the given key for the calling thread.
	 * @param key the key, unique to this contender and run
	 * @return the lock
	 */
	KeyLock lockFor(String key);

	/**
	 * Whether this contender excludes other holders at all; {@code false} for a baseline
	 * such as a {@code PING} round trip, which must not be checked for mutual exclusion.
	 * @return whether mutual exclusion is checked
	 */
	default boolean excludes() {
		return true;
	}

	/**
	 * Return on how many of the benchmark's servers this contender holds its locks: the
	 * first so many, whose commands and CPU time the tables add up.
	 * @return 1 but for a contender that locks on several independent servers
	 */
	default int nodes() {
		return 1;
	}

	/**
	 * Release the contender's connections and threads.
	 */
	@Override
	void close();

	/**
	 * Acquire and release of one key by one thread.
	 */
	interface KeyLock {

		/**
		 * Block until the lock is held.
		 */
		void lock();

		/**
		 * Release the lock, failing if this thread no longer holds it.
		 */
		void unlock();

		/**
		 * Adapt a {@link java.util.concurrent.locks.Lock}, as most contenders hand out.
		 * @param lock the lock
		 * @return the same lock as a key lock
		 */
		static KeyLock of(java.util.concurrent.locks.Lock lock) {
			return new KeyLock() {

				@Override
				public void lock() {
					lock.lock();
				}

				@Override
				public void unlock() {
					lock.unlock();
				}

			};
		}

	}

}
