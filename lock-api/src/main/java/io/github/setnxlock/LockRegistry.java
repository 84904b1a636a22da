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

/**
 * Hands out distributed locks by key.
 * <p>
 * The same key gives a lock on the same Redis key for every instance of every application
 * that shares the Redis server and the registry's key prefix, so two processes that call
 * {@code obtain("orders:42")} contend for one lock. Locks are cheap handles: obtaining
 * one does not touch Redis, and two handles for the same key share their state inside one
 * registry (a thread may lock through one handle and unlock through another).
 * <p>
 * For a piece of blocking work under a lock,
 * {@link #executeLocked(String, Duration, LockedWork) executeLocked} and
 * {@link #tryExecuteLocked(String, Duration, LockedTask) tryExecuteLocked} take the lock,
 * run the work and release the lock, however the work ends: <pre class="code">
 * Receipt receipt = locks.executeLocked("orders:" + id, Duration.ofSeconds(5), () -&gt; ship(id));
 * </pre>
 *
 * @author setnx-lock authors
 * @see LeasedLock
 */
public interface LockRegistry {

	/**
	 * Return the lock for the given key.
	 * @param key the lock's key, without the registry's prefix; neither {@code null} nor
	 * blank
	 * @return the lock (never {@code null})
	 * @throws IllegalArgumentException if the key is {@code null} or blank
	 */
	LeasedLock obtain(String key);

	/**
	 * Return the lock for the given key, with a logical name that listeners, metrics and
	 * logs use instead of the key. Give locks whose keys vary (one per order, say) one
	 * name, such as {@code "orders"}, so that what is reported by name stays bounded.
	 * @param key the lock's key, without the registry's prefix; neither {@code null} nor
	 * blank
	 * @param name the lock's logical name; not {@code null}, may be empty
	 * @return the lock (never {@code null})
	 * @throws IllegalArgumentException if the key is {@code null} or blank, or the name
	 * is {@code null}
	 */
	LeasedLock obtain(String key, String name);

	/**
	 * Run work under the lock of the given key: wait for it at most the given time, hold
	 * it with the registry's default lease, renewed while the work runs, and release it
	 * when the work ends, however it ends. What the work throws is thrown as it is.
	 * @param <T> the type of the work's result
	 * @param <E> the type of what the work may throw
	 * @param key the lock's key, without the registry's prefix
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param work the work
	 * @return the work's result
	 * @throws E what the work threw; a failure to release the lock after it is added as
	 * suppressed
	 * @throws LockNotAcquiredException if another holder kept the lock for the whole
	 * wait, or the thread was interrupted while waiting (then its interrupt status is
	 * set)
	 * @throws LockLostException if the lock was lost while the work ran, which it then
	 * did not run alone to its end
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	default <T, E extends Throwable> T executeLocked(String key, Duration wait, LockedWork<T, E> work) throws E {
		return LockedExecution.execute(obtain(key), wait, null, work);
	}

	/**
	 * Run work under the lock of the given key, as
	 * {@link #executeLocked(String, Duration, LockedWork)} does, with a lease of its own
	 * that is not renewed: the hold ends when the lease ends, whether or not the work
	 * has.
	 * @param <T> the type of the work's result
	 * @param <E> the type of what the work may throw
	 * @param key the lock's key, without the registry's prefix
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param lease how long the hold lasts at most; positive
	 * @param work the work
	 * @return the work's result
	 * @throws E what the work threw; a failure to release the lock after it is added as
	 * suppressed
	 * @throws LockNotAcquiredException if another holder kept the lock for the whole
	 * wait, or the thread was interrupted while waiting (then its interrupt status is
	 * set)
	 * @throws LockLostException if the lease ended before the work did
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	default <T, E extends Throwable> T executeLocked(String key, Duration wait, Duration lease, LockedWork<T, E> work)
			throws E {
		LockedExecution.checkLease(lease);
		return LockedExecution.execute(obtain(key), wait, lease, work);
	}

	/**
	 * Run a task under the lock of the given key, as
	 * {@link #executeLocked(String, Duration, LockedWork)} does.
	 * @param <E> the type of what the task may throw
	 * @param key the lock's key, without the registry's prefix
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param task the task
	 * @throws E what the task threw; a failure to release the lock after it is added as
	 * suppressed
	 * @throws LockNotAcquiredException if another holder kept the lock for the whole
	 * wait, or the thread was interrupted while waiting (then its interrupt status is
	 * set)
	 * @throws LockLostException if the lock was lost while the task ran
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	default <E extends Throwable> void executeLocked(String key, Duration wait, LockedTask<E> task) throws E {
		LockedExecution.execute(obtain(key), wait, null, LockedExecution.work(task));
	}

	/**
	 * Run a task under the lock of the given key if the lock can be had within the wait:
	 * as {@link #executeLocked(String, Duration, LockedTask)}, but a lock that another
	 * holder kept for the whole wait is {@code false}, and the task does not run.
	 * @param <E> the type of what the task may throw
	 * @param key the lock's key, without the registry's prefix
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param task the task
	 * @return whether the task ran
	 * @throws E what the task threw; a failure to release the lock after it is added as
	 * suppressed
	 * @throws LockNotAcquiredException if the thread was interrupted while waiting (then
	 * its interrupt status is set)
	 * @throws LockLostException if the lock was lost while the task ran
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	default <E extends Throwable> boolean tryExecuteLocked(String key, Duration wait, LockedTask<E> task) throws E {
		return LockedExecution.tryExecute(obtain(key), wait, null, task);
	}

	/**
	 * Run a task under the lock of the given key if the lock can be had within the wait,
	 * as {@link #tryExecuteLocked(String, Duration, LockedTask)}, with a lease of its own
	 * that is not renewed.
	 * @param <E> the type of what the task may throw
	 * @param key the lock's key, without the registry's prefix
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param lease how long the hold lasts at most; positive
	 * @param task the task
	 * @return whether the task ran
	 * @throws E what the task threw; a failure to release the lock after it is added as
	 * suppressed
	 * @throws LockNotAcquiredException if the thread was interrupted while waiting (then
	 * its interrupt status is set)
	 * @throws LockLostException if the lease ended before the task did
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	default <E extends Throwable> boolean tryExecuteLocked(String key, Duration wait, Duration lease,
			LockedTask<E> task) throws E {
		LockedExecution.checkLease(lease);
		return LockedExecution.tryExecute(obtain(key), wait, lease, task);
	}

	/**
	 * Work with a result, run under a lock.
	 *
	 * @param <T> the type of its result
	 * @param <E> the type of what it may throw
	 */
	@FunctionalInterface
	interface LockedWork<T, E extends Throwable> {

		/**
		 * Do the work.
		 * @return its result
		 * @throws E what the work throws
		 */
		T run() throws E;

	}

	/**
	 * Work without a result, run under a lock.
	 *
	 * @param <E> the type of what it may throw
	 */
	@FunctionalInterface
	interface LockedTask<E extends Throwable> {

		/**
		 * Do the work.
		 * @throws E what the work throws
		 */
		void run() throws E;

	}

}
