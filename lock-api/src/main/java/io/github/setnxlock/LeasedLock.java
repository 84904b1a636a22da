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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} whose ownership is a lease in Redis.
 * <p>
 * <b>What it guarantees.</b> While {@link #isHeldByCurrentThread()} is {@code true}, no
 * other client that follows the same protocol on the same Redis primary holds the lock.
 * The lock is reentrant per thread: the Redis key is written on the first acquisition and
 * removed when the hold count returns to zero.
 * <p>
 * <b>Leases.</b> A hold ends when its lease ends, whether or not {@link #unlock()} was
 * called, so a crashed holder cannot block others forever. Holds taken without a lease of
 * their own ({@link #lock()}, {@link #tryLock()}, {@link #tryLock(Duration)}, ...) are
 * renewed by the registry while their thread lives, so a live holder keeps its lock
 * however long it works; {@link #tryLock(Duration, Duration)} holds for a fixed lease.
 * The holder computes its own deadline from the moment it <em>sent</em> the acquisition
 * or renewal, on a monotonic clock, less a small drift margin, so it knows it has lost
 * the lock before any competitor can have it. After that deadline, or once a renewal
 * finds the key taken, {@link #isHeldByCurrentThread()} is {@code false} and
 * {@link #checkHeld()} and {@link #unlock()} throw {@link LockLostException}: the work
 * done under the lock may not have been exclusive, and the caller has to hear it.
 * <p>
 * <b>What it does not guarantee.</b> A process that pauses (a long GC, a stopped VM,
 * SIGSTOP) longer than its lease may resume believing it still works under the lock while
 * another holder already does; and Redis replication is asynchronous, so a failover can
 * lose a freshly written lock key and hand the lock to a second client. Neither can be
 * prevented by a lock service alone. That is what the {@link #fencingToken() fencing
 * token} is for: pass it to the protected resource with every write and let the resource
 * reject a token lower than one it has already seen.
 * <p>
 * <b>Failures.</b> Contention is a return value: {@code tryLock} returns {@code false}
 * when someone else holds the lock for the whole wait. Trouble with Redis (unreachable,
 * timed out, a key of the wrong type or a value that is not a lock) is a
 * {@link LockAccessException} naming the key, never {@code false}. A call with a wait
 * time returns or throws by the end of its wait, even when Redis does not answer; a wait
 * of zero, like {@link #tryLock()} and {@link #lock()}, makes its attempts wait for
 * Redis's answer up to the client's command timeout.
 *
 * @author setnx-lock authors
 */
public interface LeasedLock extends Lock {

	/**
	 * Return the key this lock was obtained for, without the registry's prefix.
	 * @return the key
	 */
	String key();

	/**
	 * Return the lock's logical name, as given to
	 * {@link LockRegistry#obtain(String, String)}; empty when none was given.
	 * @return the name
	 */
	String name();

	/**
	 * Acquire the lock within the given wait, holding it for the given lease.
	 * <p>
	 * The lease is not renewed: the hold ends when the lease ends.
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param lease how long the hold lasts unless released earlier; positive
	 * @return {@code true} if the lock was acquired, {@code false} if another holder kept
	 * it for the whole wait
	 * @throws InterruptedException if the thread is interrupted while waiting
	 * @throws IllegalArgumentException if the wait is negative or the lease is not
	 * positive
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	boolean tryLock(Duration wait, Duration lease) throws InterruptedException;

	/**
	 * Acquire the lock within the given wait, with the registry's default lease, renewed
	 * while held.
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @return {@code true} if the lock was acquired, {@code false} if another holder kept
	 * it for the whole wait
	 * @throws InterruptedException if the thread is interrupted while waiting
	 * @throws IllegalArgumentException if the wait is negative
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	boolean tryLock(Duration wait) throws InterruptedException;

	/**
	 * Acquire the lock within the given wait, with the registry's default lease.
	 * <p>
	 * As {@link Lock#tryLock(long, TimeUnit)} specifies, a time of zero or less means a
	 * single attempt. Use {@link #tryLock(Duration)} to have negative waits rejected.
	 * @throws LockAccessException if Redis cannot be used for this key
	 */
	@Override
	boolean tryLock(long time, TimeUnit unit) throws InterruptedException;

	/**
	 * Whether the current thread holds this lock and its lease has not ended.
	 * <p>
	 * Answered locally, without a round trip to Redis.
	 * @return {@code true} if the current thread holds the lock
	 */
	boolean isHeldByCurrentThread();

	/**
	 * Throw if the current thread does not hold this lock, or no longer does. Long work
	 * under a lock can call it between steps to stop as soon as the lock is lost.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws LockLostException if its hold was lost (the lease ended, or a renewal found
	 * the key taken); {@link #unlock()} is still owed
	 */
	void checkHeld();

	/**
	 * Interrupt the current thread as soon as its hold of this lock is found lost: a
	 * renewal answered that the key is someone else's, renewals could not reach Redis
	 * before the holder's deadline, or a lease of its own ended. Blocking work under the
	 * lock then stops with an {@link InterruptedException}. It applies to the current
	 * hold only.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 */
	void interruptOnLoss();

	/**
	 * Whether anyone holds this lock, as Redis sees it now.
	 * @return {@code true} if some client holds the lock
	 * @throws LockAccessException if Redis cannot be read
	 */
	boolean isLocked();

	/**
	 * Return who holds this lock now, as its owner token in Redis names it
	 * ({@code [application@]host/pid/thread}), for messages and operators: one read of
	 * Redis.
	 * @return the holder, or {@code null} when nobody holds the lock, its holder is not
	 * named (a registry told not to, another client of the key), Redis could not say, or
	 * this kind of lock cannot tell
	 */
	default String holder() {
		return null;
	}

	/**
	 * Return how many times the current thread holds this lock, that is how many
	 * {@link #unlock()} calls it still owes. A hold whose lease has ended still counts
	 * until it is unlocked, so this can be positive while
	 * {@link #isHeldByCurrentThread()} is {@code false}.
	 * @return the hold count, {@code 0} if the current thread does not hold it
	 */
	int holdCount();

	/**
	 * Return the fencing token of the current hold.
	 * <p>
	 * Tokens are strictly increasing per lock key across all holders and across restarts
	 * of a Redis server without persistence (they never fall below the server's clock in
	 * microseconds). A resource that remembers the highest token it has accepted and
	 * rejects lower ones is safe against a holder that lost its lock without noticing.
	 * <p>
	 * The token is drawn on the first call of a hold, in one step with a check that the
	 * lock key is still this holder's, and later calls of the same hold return it without
	 * asking Redis: a hold that never asks costs no draw. The first call waits for Redis
	 * up to the holder's deadline. Holds of a key never overlap in Redis, so tokens
	 * follow the order of the holds that asked for one; a hold that asks late still gets
	 * a token above every earlier hold's.
	 * @return the token, valid while the current thread holds the lock
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws LockLostException if the hold was lost, or the draw found the key taken
	 * over or deleted (the hold is then lost)
	 * @throws LockAccessException if Redis could not be reached for the draw; the hold is
	 * kept, and a later call draws again
	 */
	long fencingToken();

	/**
	 * Release one hold of the lock. The Redis key is deleted when the hold count returns
	 * to zero, and only if it still belongs to this holder.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws LockLostException if the lease had ended or another client had taken the
	 * lock; the local hold is released all the same
	 * @throws LockAccessException if Redis could not be reached; the local hold is
	 * released all the same and the key ends with its lease
	 */
	@Override
	void unlock();

	/**
	 * Release one hold of the lock, but leave the lock in Redis for the given time, after
	 * which it ends by itself. Until then no other client can acquire it, not even
	 * another thread of this JVM, while this thread is free to go on. It is meant for
	 * work that must not run again too soon elsewhere, such as a scheduled job that
	 * finishes quickly ("hold at least").
	 * <p>
	 * When the current thread holds the lock more than once this only counts one hold
	 * down, as {@link #unlock()} does. The time replaces what was left of the lease; it
	 * may be shorter or longer.
	 * @param keep how long the lock stays in Redis; positive
	 * @throws IllegalArgumentException if {@code keep} is not positive
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws LockLostException if the lease had ended or another client had taken the
	 * lock; the local hold is released all the same
	 * @throws LockAccessException if Redis could not be reached; the local hold is
	 * released all the same and the key ends with its lease
	 */
	void unlockKeepingFor(Duration keep);

	/**
	 * Give the current thread's hold of this lock, taken with a lease of its own
	 * ({@link #tryLock(Duration, Duration)}), a new lease from now: for work that turns
	 * out to need longer. The lease replaces what was left, longer or shorter; it counts
	 * from when the extension was sent, as a renewal's does. Waits for Redis's answer.
	 * @param lease the new lease; positive
	 * @throws IllegalArgumentException if the lease is not positive
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws IllegalStateException if the registry renews the hold (taken without a
	 * lease of its own)
	 * @throws LockLostException if the hold was lost, or the extension found it lost or
	 * was answered after the holder's deadline; {@link #unlock()} is still owed
	 * @throws LockAccessException if Redis could not be reached; the hold keeps its lease
	 */
	void extendLease(Duration lease);

	/**
	 * Acquire the lock without a thread waiting for it, with the registry's default
	 * lease, renewed while held.
	 * <p>
	 * The hold belongs to no thread: the returned {@link LockHandle} releases it, from
	 * any thread. It is not reentrant (see {@link LockHandle}). Waiting holds no thread:
	 * release messages, the holder's lease and timers move the acquisition on. It waits
	 * in line with the other waiters of this registry, threads and asynchronous alike,
	 * and follows the same protocol as {@link #tryLock(Duration)}, whose rules for the
	 * wait hold here too: the future completes by the end of the wait even when Redis
	 * does not answer.
	 * <p>
	 * The future completes on one of the registry's callback threads, never on a thread
	 * that serves Redis, renews leases or delivers release messages, so continuations may
	 * block. {@link CompletableFuture#cancel(boolean) Cancelling} it, or completing it
	 * otherwise (as {@code orTimeout} does), gives the acquisition up: it leaves the
	 * line, and a hold taken in Redis meanwhile is released.
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @return the hold, or empty if another holder kept the lock for the whole wait;
	 * failed with {@link LockAccessException} if Redis cannot be used for this key
	 * @throws IllegalArgumentException if the wait is {@code null} or negative
	 */
	CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait);

	/**
	 * Acquire the lock without a thread waiting for it, holding it for the given lease,
	 * which is not renewed; otherwise as {@link #acquireAsync(Duration)}.
	 * @param wait how long to wait for the lock; zero for a single attempt
	 * @param lease how long the hold lasts unless released earlier; positive
	 * @return the hold, or empty if another holder kept the lock for the whole wait
	 * @throws IllegalArgumentException if the wait is negative or the lease is not
	 * positive
	 */
	CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait, Duration lease);

	/**
	 * Not supported: a condition cannot be waited on across processes.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	Condition newCondition();

}
