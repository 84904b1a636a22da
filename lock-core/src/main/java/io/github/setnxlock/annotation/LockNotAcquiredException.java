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

package io.github.setnxlock.annotation;

import java.time.Duration;

/**
 * Thrown by a {@link DistributedLock} method whose lock was held by someone else for the
 * whole wait (with {@link OnLockFailure#THROW}), or whose thread was interrupted while
 * waiting (then the cause is the {@link InterruptedException} and the thread's interrupt
 * status is set).
 *
 * @author setnx-lock authors
 */
public class LockNotAcquiredException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** The lock's logical name. */
	private final String lockName;

	/** The key the lock was obtained for. */
	private final String key;

	/** How long the call waited. */
	private final Duration waitTime;

	/**
	 * Create a new exception.
	 * @param lockName the lock's logical name
	 * @param key the key the lock was obtained for
	 * @param waitTime how long the call waited
	 * @param cause the interrupt that ended the wait, or {@code null}
	 */
	public LockNotAcquiredException(String lockName, String key, Duration waitTime, Throwable cause) {
		super(((cause != null) ? "Interrupted while waiting for lock '" + key + "'"
				: "Lock '" + key + "' was held by someone else for the whole wait of " + waitTime), cause);
		this.lockName = lockName;
		this.key = key;
		this.waitTime = waitTime;
	}

	/**
	 * Return the lock's logical name.
	 * @return the name
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * Return the key the lock was obtained for, without the registry's prefix.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return how long the call waited for the lock.
	 * @return the wait
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
