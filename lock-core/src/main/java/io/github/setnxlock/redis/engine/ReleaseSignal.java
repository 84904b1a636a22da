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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The release messages of one key in this JVM. Internal API.
 * <p>
 * Each message counts one <em>release generation</em> up, and a waiter that noted the
 * generation before it asked Redis waits only while it stays the same, so a message that
 * arrives between Redis's answer and the wait is not missed. An acquisition waits by
 * leaving a callback ({@link #whenAnnounced}) that the next message runs, on the thread
 * that delivers it.
 *
 * @author setnx-lock authors
 */
public final class ReleaseSignal {

	private final ReentrantLock lock = new ReentrantLock();

	/** Guarded by {@link #lock}. */
	private long releaseGeneration;

	/** Callbacks for the next message; guarded by the lock. */
	private final List<Runnable> callbacks = new ArrayList<>();

	/**
	 * Return the number of release messages seen for this key so far.
	 * @return the release generation
	 */
	long generation() {
		this.lock.lock();
		try {
			return this.releaseGeneration;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Count a release message (or the news that messages may have been missed) and run
	 * the callbacks waiting for one.
	 */
	void announced() {
		List<Runnable> due;
		this.lock.lock();
		try {
			this.releaseGeneration++;
			if (this.callbacks.isEmpty()) {
				return;
			}
			due = new ArrayList<>(this.callbacks);
			this.callbacks.clear();
		}
		finally {
			this.lock.unlock();
		}
		due.forEach(Runnable::run);
	}

	/**
	 * Run a callback once a release message newer than the given generation arrives: at
	 * once, on the caller's thread, if one has; else on the thread that delivers it.
	 * @param seenGeneration the generation noted before Redis was last asked
	 * @param callback what to run, once; it must not block
	 */
	void whenAnnounced(long seenGeneration, Runnable callback) {
		this.lock.lock();
		try {
			if (this.releaseGeneration == seenGeneration) {
				this.callbacks.add(callback);
				return;
			}
		}
		finally {
			this.lock.unlock();
		}
		callback.run();
	}

	/**
	 * Drop a callback that is no longer wanted (its pause ended first).
	 * @param callback the callback given to {@link #whenAnnounced}
	 */
	void forget(Runnable callback) {
		this.lock.lock();
		try {
			this.callbacks.remove(callback);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return how many acquisitions wait for a release message of this key: a test's
	 * handshake that a waiter is parked on Redis's answer, not still on its way there.
	 * @return the number of waiters
	 */
	public int waiters() {
		this.lock.lock();
		try {
			return this.callbacks.size();
		}
		finally {
			this.lock.unlock();
		}
	}

}
