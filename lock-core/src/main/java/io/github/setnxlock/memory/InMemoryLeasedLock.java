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
package io.github.setnxlock.memory;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;

/**
 * The {@link LeasedLock} of an {@link InMemoryLockRegistry}: the current thread's view of
 * one key of the registry's lock space, reentrant through the registry's table of thread
 * holds.
 *
 * @author setnx-lock authors
 */
final class InMemoryLeasedLock implements LeasedLock {

	private final InMemoryLockRegistry registry;

	private final String key;

	private final String name;

	InMemoryLeasedLock(InMemoryLockRegistry registry, String key, String name) {
		this.registry = registry;
		this.key = key;
		this.name = name;
	}

	@Override
	public String key() {
		return this.key;
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
		long waitNanos = LeaseLimits.waitNanos(wait);
		LeaseLimits.check("lease", lease);
		return acquire(waitNanos, lease, true);
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

	private boolean acquire(long waitNanos, Duration lease, boolean interruptible) throws InterruptedException {
		if (interruptible && Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + this.key + "'");
		}
		Thread thread = Thread.currentThread();
		MemoryHold hold = this.registry.holdOf(this.key, thread);
		if (hold != null) {
			if (!hold.isHeld(System.nanoTime())) {
				throw hold.lostException("before this thread took it again; unlock() it to clear the hold");
			}
			hold.count++;
			return true;
		}
		MemoryHold acquired = this.registry.space().acquire(this.key, this.name, lease, waitNanos, interruptible);
		if (acquired == null) {
			return false;
		}
		this.registry.held(this.key, thread, acquired);
		return true;
	}

	@Override
	public void unlock() {
		release(null);
	}

	@Override
	public void unlockKeepingFor(Duration keep) {
		LeaseLimits.check("keep", keep);
		release(keep);
	}

	private void release(Duration keep) {
		MemoryHold hold = requiredHold();
		if (hold.count > 1) {
			// What this entry asked for at a loss (an inner @DistributedLock call) is not
			// the business of the outer code that goes on holding.
			this.registry.space().entryEnded(hold, hold.count);
			hold.count--;
			if (!hold.isHeld(System.nanoTime())) {
				throw hold.lostException("before unlock()");
			}
			return;
		}
		this.registry.ended(this.key, Thread.currentThread());
		if (!this.registry.space().release(hold, keep)) {
			throw hold.lostException("before unlock()");
		}
	}

	@Override
	public void extendLease(Duration lease) {
		LeaseLimits.check("lease", lease);
		MemoryHold hold = requiredHold();
		if (!hold.isLeased()) {
			throw new IllegalStateException("Lock '" + this.key
					+ "' was taken without a lease of its own and is held until unlocked; only a hold with a lease can be given a new one");
		}
		if (!this.registry.space().extend(hold, lease)) {
			throw hold.lostException("before its lease was extended");
		}
	}

	@Override
	public boolean isHeldByCurrentThread() {
		MemoryHold hold = currentThreadHold();
		return hold != null && hold.isHeld(System.nanoTime());
	}

	@Override
	public void checkHeld() {
		MemoryHold hold = requiredHold();
		if (!hold.isHeld(System.nanoTime())) {
			throw hold.lostException("while held");
		}
	}

	@Override
	public void interruptOnLoss() {
		Thread holder = Thread.currentThread();
		MemoryHold hold = requiredHold();
		this.registry.space().onLoss(hold, holder::interrupt, hold.count);
	}

	@Override
	public boolean isLocked() {
		return this.registry.space().isLocked(this.key);
	}

	@Override
	public int holdCount() {
		MemoryHold hold = currentThreadHold();
		return (hold != null) ? hold.count : 0;
	}

	@Override
	public long fencingToken() {
		MemoryHold hold = requiredHold();
		long token = this.registry.space().fencingToken(hold);
		if (token == 0) {
			throw hold.lostException("before its fencing token was drawn");
		}
		return token;
	}

	private MemoryHold currentThreadHold() {
		return this.registry.holdOf(this.key, Thread.currentThread());
	}

	private MemoryHold requiredHold() {
		MemoryHold hold = currentThreadHold();
		if (hold == null) {
			throw new IllegalMonitorStateException("Lock '" + this.key + "' is not held by the current thread");
		}
		return hold;
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait) {
		return acquireAsync(LeaseLimits.waitNanos(wait), null);
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait, Duration lease) {
		long waitNanos = LeaseLimits.waitNanos(wait);
		LeaseLimits.check("lease", lease);
		return acquireAsync(waitNanos, lease);
	}

	private CompletableFuture<Optional<LockHandle>> acquireAsync(long waitNanos, Duration lease) {
		LockSpace space = this.registry.space();
		CompletableFuture<MemoryHold> hold = space.acquireAsync(this.key, this.name, lease, waitNanos);
		CompletableFuture<Optional<LockHandle>> handle = new CompletableFuture<>();
		hold.whenComplete((acquired, failure) -> {
			if (failure != null) {
				handle.completeExceptionally(failure);
			}
			else if (!handle
				.complete(Optional.ofNullable((acquired != null) ? new InMemoryLockHandle(space, acquired) : null))
					&& acquired != null) {
				// Given up by the caller a moment ago: nobody else can release it.
				space.release(acquired, null);
			}
		});
		// The caller giving up (a cancel, or a completion of its own such as a timeout)
		// takes the acquisition out of line.
		handle.whenComplete((acquired, failure) -> {
			if (!hold.isDone()) {
				hold.cancel(false);
			}
		});
		return handle;
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Conditions are not supported by distributed locks");
	}

	@Override
	public String toString() {
		return "InMemoryLeasedLock[key='" + this.key + "']";
	}

}
