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

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * The {@link LeasedLock} of a registry (Redis or in memory): the thread-bound view of one
 * key over the registry's {@link LockEngine}, which does the work. The holder is the
 * current thread, so a thread that holds the key through one handle holds it through all
 * of them, and takes it again (reentrantly) through any. An asynchronous acquisition
 * hands out the other view, an {@link AsyncLockHandle}, whose owner is no thread.
 *
 * @author setnx-lock authors
 */
final class ThreadBoundLock implements LeasedLock {

	private static final long HOLDER_WAIT_MILLIS = 1000;

	private final LockEngine engine;

	private final LockKey key;

	private final String name;

	ThreadBoundLock(LockEngine engine, LockKey key, String name) {
		this.engine = engine;
		this.key = key;
		this.name = name;
	}

	@Override
	public String key() {
		return this.key.key();
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void lock() {
		acquireUninterruptibly(LeaseLimits.NO_LIMIT_NANOS);
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		acquire(LeaseLimits.NO_LIMIT_NANOS, null, true);
	}

	@Override
	public boolean tryLock() {
		return acquireUninterruptibly(0);
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		Objects.requireNonNull(unit, "unit must not be null");
		return acquire(Math.max(0, unit.toNanos(time)), null, true);
	}

	@Override
	public boolean tryLock(Duration wait) throws InterruptedException {
		return acquire(LeaseLimits.waitNanos(wait), null, true);
	}

	@Override
	public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
		return acquire(LeaseLimits.waitNanos(wait), LeaseLimits.check("lease", lease), true);
	}

	private boolean acquireUninterruptibly(long waitNanos) {
		try {
			return acquire(waitNanos, null, false);
		}
		catch (InterruptedException ex) {
			// Not reachable: an uninterruptible wait keeps the interrupt instead.
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private boolean acquire(long waitNanos, Duration explicitLease, boolean interruptible) throws InterruptedException {
		return this.engine.acquire(this.key, this.name, Thread.currentThread(), explicitLease, waitNanos,
				interruptible) != null;
	}

	@Override
	public void unlock() {
		this.engine.release(requiredHold(), null);
	}

	@Override
	public void unlockKeepingFor(Duration keep) {
		LeaseLimits.check("keep", keep);
		this.engine.release(requiredHold(), keep);
	}

	@Override
	public void extendLease(Duration lease) {
		LeaseLimits.check("lease", lease);
		Hold hold = requiredHold();
		boolean extended;
		try {
			extended = this.engine.extend(hold, lease).join();
		}
		catch (CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
		}
		if (!extended) {
			throw hold.lostException("before its lease was extended");
		}
	}

	@Override
	public boolean isHeldByCurrentThread() {
		Hold hold = currentThreadHold();
		return hold != null && !hold.isLost(System.nanoTime());
	}

	@Override
	public void checkHeld() {
		notLost(requiredHold());
	}

	@Override
	public void interruptOnLoss() {
		this.engine.onLoss(requiredHold(), Thread.currentThread()::interrupt);
	}

	@Override
	public boolean isLocked() {
		return LockEngine.awaitUninterrupted(this.engine.isLocked(this.key));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Waits a second at most for Redis, whatever the command timeout: {@code null} then,
	 * as when Redis fails: the holder is for messages about another failure.
	 */
	@Override
	public String holder() {
		try {
			return this.engine.holder(this.key).get(HOLDER_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	@Override
	public int holdCount() {
		Hold hold = currentThreadHold();
		return (hold != null) ? hold.holdCount() : 0;
	}

	@Override
	public long fencingToken() {
		return this.engine.fencingToken(notLost(requiredHold()));
	}

	private Hold currentThreadHold() {
		return this.engine.holdOf(this.key, Thread.currentThread());
	}

	private Hold requiredHold() {
		Hold hold = currentThreadHold();
		if (hold == null) {
			throw new IllegalMonitorStateException("Lock '" + key() + "' is not held by the current thread");
		}
		return hold;
	}

	private static Hold notLost(Hold hold) {
		if (hold.isLost(System.nanoTime())) {
			throw hold.lostException("while held");
		}
		return hold;
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait) {
		return acquireAsync(LeaseLimits.waitNanos(wait), null);
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait, Duration lease) {
		return acquireAsync(LeaseLimits.waitNanos(wait), LeaseLimits.check("lease", lease));
	}

	private CompletableFuture<Optional<LockHandle>> acquireAsync(long waitNanos, Duration explicitLease) {
		CompletableFuture<Hold> hold = this.engine.acquireAsync(this.key, this.name, explicitLease, waitNanos);
		CompletableFuture<Optional<LockHandle>> handle = new CompletableFuture<>();
		hold.whenComplete((acquired, failure) -> {
			if (failure != null) {
				handle.completeExceptionally(Waits.unwrapped(failure));
			}
			else if (!handle
				.complete(Optional.ofNullable((acquired != null) ? new AsyncLockHandle(this.engine, acquired) : null))
					&& acquired != null) {
				// Cancelled by the caller a moment ago: nobody else can release it.
				this.engine.releaseAsync(acquired, null);
			}
		});
		// The caller giving up (a cancel, or a completion of its own, such as a
		// timeout) gives the acquisition up.
		handle.whenComplete((acquired, failure) -> hold.cancel(false));
		return handle;
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Conditions are not supported by distributed locks");
	}

	@Override
	public String toString() {
		return "ThreadBoundLock[key='" + key() + "', redisKey='" + this.key.redisKey() + "']";
	}

	/** The {@link LockHandle} of an asynchronous hold, released once. */
	static final class AsyncLockHandle implements LockHandle {

		private final LockEngine engine;

		private final Hold hold;

		private final AtomicBoolean released = new AtomicBoolean();

		AsyncLockHandle(LockEngine engine, Hold hold) {
			this.engine = engine;
			this.hold = hold;
		}

		@Override
		public String key() {
			return this.hold.key();
		}

		@Override
		public String name() {
			return this.hold.name();
		}

		@Override
		public boolean isHeld() {
			return !this.released.get() && !this.hold.isLost(System.nanoTime());
		}

		@Override
		public void checkHeld() {
			if (this.released.get()) {
				throw alreadyReleased();
			}
			notLost(this.hold);
		}

		@Override
		public long fencingToken() {
			checkHeld();
			return this.engine.fencingToken(this.hold);
		}

		@Override
		public CompletableFuture<Long> fencingTokenAsync() {
			try {
				checkHeld();
			}
			catch (RuntimeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
			return this.engine.fencingTokenAsync(this.hold);
		}

		@Override
		public CompletableFuture<Boolean> extend(Duration lease) {
			LeaseLimits.check("lease", lease);
			return this.released.get() ? CompletableFuture.completedFuture(false)
					: this.engine.extend(this.hold, lease);
		}

		@Override
		public CompletableFuture<Void> release() {
			return releaseOnce(null);
		}

		@Override
		public CompletableFuture<Void> releaseKeepingFor(Duration keep) {
			return releaseOnce(LeaseLimits.check("keep", keep));
		}

		private CompletableFuture<Void> releaseOnce(Duration keep) {
			return this.released.compareAndSet(false, true) ? this.engine.releaseAsync(this.hold, keep)
					: CompletableFuture.failedFuture(alreadyReleased());
		}

		private IllegalStateException alreadyReleased() {
			return new IllegalStateException("The hold of lock '" + key() + "' was released already");
		}

		@Override
		public String toString() {
			return "AsyncLockHandle[key='" + key() + "', held=" + isHeld() + "]";
		}

	}

}
