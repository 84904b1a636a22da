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
package io.github.setnxlock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;

/**
 * A setnx-lock lock seen through Spring Integration's {@link DistributedLock}, throwing
 * what {@code RedisLockRegistry}'s locks throw, with setnx-lock's exception as the cause.
 * Equal only to itself: the registry gives one handle per key while it is referenced.
 *
 * @author setnx-lock authors
 */
final class IntegrationLock implements DistributedLock {

	/** Longer than any wait anybody means, short of overflowing nanosecond arithmetic. */
	private static final Duration UNLIMITED = Duration.ofDays(365L * 100);

	private final LeasedLock lock;

	private final LostHolds lostHolds;

	IntegrationLock(LeasedLock lock, LostHolds lostHolds) {
		this.lock = lock;
		this.lostHolds = lostHolds;
	}

	@Override
	public void lock() {
		acquireUninterruptibly(() -> {
			this.lock.lock();
			return true;
		});
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		acquire(() -> {
			this.lock.lockInterruptibly();
			return true;
		});
	}

	@Override
	public boolean tryLock() {
		return acquireUninterruptibly(this.lock::tryLock);
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return acquire(() -> this.lock.tryLock(time, unit));
	}

	/**
	 * Wait for the lock as long as it takes, whatever interrupts arrive meanwhile (they
	 * are kept), holding it for the given time to live, which is not renewed.
	 * @param ttl the time to live
	 */
	@Override
	public void lock(Duration ttl) {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					if (acquire(() -> this.lock.tryLock(UNLIMITED, ttl))) {
						return;
					}
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
		return acquire(() -> this.lock.tryLock(waitTime, ttl));
	}

	private boolean acquireUninterruptibly(Acquisition acquisition) {
		try {
			return acquire(acquisition);
		}
		catch (InterruptedException ex) {
			// Not reachable: these acquisitions keep an interrupt instead.
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Run an acquisition. On a hold of the current thread's that was lost, Spring
	 * Integration's lock goes to Redis again, taking a free key and answering
	 * {@code false} for a taken one; this does the same, but as a new hold, setting the
	 * lost one aside, so that the unlocks owed for it still report the loss.
	 */
	private boolean acquire(Acquisition acquisition) throws InterruptedException {
		try {
			try {
				return acquisition.acquire();
			}
			catch (LockLostException ex) {
				setAside(ex);
				return acquisition.acquire();
			}
		}
		catch (LockAccessException ex) {
			throw new CannotAcquireLockException("Failed to lock mutex at " + key(), ex);
		}
	}

	private void setAside(LockLostException loss) {
		int owed = this.lock.holdCount();
		for (int i = 0; i < owed; i++) {
			try {
				this.lock.unlock();
			}
			catch (RuntimeException ex) {
				// Each unlock of a lost hold reports its loss, already known; the last
				// one releases it all the same.
				if (ex != loss && !(ex instanceof LockLostException)) {
					loss.addSuppressed(ex);
				}
			}
		}
		this.lostHolds.add(key(), owed, loss);
	}

	/**
	 * Release one hold, or pay one unlock owed for a hold that was lost and set aside.
	 * @throws IllegalStateException if the current thread neither holds the lock nor owes
	 * it an unlock (caused by setnx-lock's {@link IllegalMonitorStateException})
	 * @throws ConcurrentModificationException if the hold was lost before (caused by the
	 * {@link LockLostException}); the hold is released all the same
	 */
	@Override
	public void unlock() {
		if (this.lock.holdCount() == 0) {
			LockLostException owed = this.lostHolds.pay(key());
			if (owed != null) {
				throw lost(owed);
			}
		}
		try {
			this.lock.unlock();
		}
		catch (LockLostException ex) {
			throw lost(ex);
		}
		catch (IllegalMonitorStateException ex) {
			throw new IllegalStateException("You do not own lock at " + key(), ex);
		}
	}

	/**
	 * Check the current thread's hold, or give it a new time to live.
	 * @param ttl the new time to live, or {@code null} to check only
	 */
	void renew(Duration ttl) {
		try {
			if (ttl != null) {
				this.lock.extendLease(ttl);
			}
			else {
				this.lock.checkHeld();
			}
		}
		catch (IllegalMonitorStateException ex) {
			// A hold set aside as lost says more than "not held".
			LockLostException owed = (this.lock.holdCount() == 0) ? this.lostHolds.peek(key()) : null;
			throw new IllegalStateException("Could not renew mutex at " + key(), (owed != null) ? owed : ex);
		}
	}

	private static ConcurrentModificationException lost(LockLostException loss) {
		// Spring Integration's words, which callers may look for, then ours.
		return new ConcurrentModificationException("Lock was released in the store due to expiration. "
				+ "The integrity of data protected by this lock may have been compromised. " + loss.getMessage(), loss);
	}

	private String key() {
		return this.lock.key();
	}

	@Override
	public Condition newCondition() {
		return this.lock.newCondition();
	}

	@Override
	public String toString() {
		return "IntegrationLock[" + this.lock + "]";
	}

	@FunctionalInterface
	private interface Acquisition {

		boolean acquire() throws InterruptedException;

	}

}
