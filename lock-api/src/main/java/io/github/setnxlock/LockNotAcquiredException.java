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

package io.github.setnxlock;

import java.time.Duration;

import org.springframework.dao.CannotAcquireLockException;

/**
 * Thrown when a lock was held by someone else for the whole wait, by a
 * {@code @DistributedLock} method (with {@code OnLockFailure.THROW}), by
 * {@link LockRegistry#executeLocked} and by the Reactor adapter; or when the thread was
 * interrupted while waiting (then the cause is the {@link InterruptedException} and the
 * thread's interrupt status is set).
 * <p>
 * From a {@code DistributedLock} method, its message names the lock's
 * {@link #getLockName() name} and the method, never the {@link #getKey() key}: that key
 * is built from the call's arguments, which may be personal data that has no place in
 * logs. From code that chose the key itself, its message names the key.
 * <p>
 * It is Spring's {@link CannotAcquireLockException}, so code and retry policies that
 * handle Spring's {@link org.springframework.dao.ConcurrencyFailureException} (a
 * transient failure: trying again later may succeed) see it.
 *
 * @author setnx-lock authors
 */
public class LockNotAcquiredException extends CannotAcquireLockException {

	private static final long serialVersionUID = 1L;

	/** The lock's logical name. */
	private final String lockName;

	/** The key the lock was obtained for, possibly made of personal data. */
	private final String key;

	/** How long the call waited. */
	private final Duration waitTime;

	/** Who held the lock when the wait ended, or {@code null}. */
	private final String holder;

	/**
	 * Create a new exception whose message names the key, for a lock taken by code that
	 * chose the key itself.
	 * @param lockName the lock's logical name
	 * @param key the key the lock was obtained for
	 * @param waitTime how long the call waited
	 * @param cause the interrupt that ended the wait, or {@code null}
	 */
	public LockNotAcquiredException(String lockName, String key, Duration waitTime, Throwable cause) {
		this(lockName, key, waitTime, cause, null);
	}

	/**
	 * Create a new exception whose message names the key and who held the lock, for a
	 * lock taken by code that chose the key itself.
	 * @param lockName the lock's logical name
	 * @param key the key the lock was obtained for
	 * @param waitTime how long the call waited
	 * @param cause the interrupt that ended the wait, or {@code null}
	 * @param holder who held the lock when the wait ended (see
	 * {@link LeasedLock#holder()}), or {@code null}
	 */
	public LockNotAcquiredException(String lockName, String key, Duration waitTime, Throwable cause, String holder) {
		this("'" + key + "'", lockName, key, waitTime, cause, holder);
	}

	/**
	 * Create a new exception.
	 * @param lock how the message names the lock
	 */
	private LockNotAcquiredException(String lock, String lockName, String key, Duration waitTime, Throwable cause,
			String holder) {
		super(((cause != null) ? "Interrupted while waiting for lock " + lock : "Lock " + lock + " was held by "
				+ ((holder != null) ? holder : "someone else") + " for the whole wait of " + waitTime), cause);
		this.lockName = lockName;
		this.key = key;
		this.waitTime = waitTime;
		this.holder = holder;
	}

	/**
	 * Create the exception of a method whose lock is named after it, whose message names
	 * the lock and the method but not the key (which may hold the method's arguments).
	 * @param lockName the lock's logical name
	 * @param method the method, as the message shows it
	 * @param key the key the lock was obtained for
	 * @param waitTime how long the call waited
	 * @param cause the interrupt that ended the wait, or {@code null}
	 * @return the exception
	 */
	public static LockNotAcquiredException ofMethod(String lockName, String method, String key, Duration waitTime,
			Throwable cause) {
		return ofMethod(lockName, method, key, waitTime, cause, null);
	}

	/**
	 * Create the exception of a method whose lock is named after it, whose message names
	 * the lock, the method and who held the lock, but not the key.
	 * @param lockName the lock's logical name
	 * @param method the method, as the message shows it
	 * @param key the key the lock was obtained for
	 * @param waitTime how long the call waited
	 * @param cause the interrupt that ended the wait, or {@code null}
	 * @param holder who held the lock when the wait ended, or {@code null}
	 * @return the exception
	 */
	public static LockNotAcquiredException ofMethod(String lockName, String method, String key, Duration waitTime,
			Throwable cause, String holder) {
		return new LockNotAcquiredException("'" + lockName + "' of " + method, lockName, key, waitTime, cause, holder);
	}

	/**
	 * Return the lock's logical name.
	 * @return the name
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * Return the key the lock was obtained for, without the registry's prefix. For a
	 * {@code DistributedLock} method it holds what the key expression made of the
	 * arguments, which may be personal data: mind where it is written.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return who held the lock when the wait ended, as its owner token names it
	 * ({@code [application@]host/pid/thread}).
	 * @return the holder, or {@code null} when not known (not read, not named, or the
	 * wait was interrupted)
	 */
	public String getHolder() {
		return this.holder;
	}

	/**
	 * Return how long the call waited for the lock.
	 * @return the wait
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
