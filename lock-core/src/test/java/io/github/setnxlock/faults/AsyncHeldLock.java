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
package io.github.setnxlock.faults;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;

/**
 * The history workers' view of an asynchronous hold: a {@link LeasedLock} whose
 * {@code tryLock} waits for {@link LeasedLock#acquireAsync} and whose {@code unlock}
 * waits for the handle's release, so that the same worker loop and checker judge
 * asynchronous holds. One instance serves one acquisition at a time.
 *
 * @author setnx-lock authors
 */
final class AsyncHeldLock implements LeasedLock {

	private final LeasedLock lock;

	private LockHandle handle;

	AsyncHeldLock(LeasedLock lock) {
		this.lock = lock;
	}

	@Override
	public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
		return held(this.lock.acquireAsync(wait, lease));
	}

	@Override
	public boolean tryLock(Duration wait) throws InterruptedException {
		return held(this.lock.acquireAsync(wait));
	}

	@Override
	public void lock() {
		try {
			held(this.lock.acquireAsync(Duration.ofDays(1)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private boolean held(CompletableFuture<Optional<LockHandle>> acquisition) throws InterruptedException {
		try {
			this.handle = acquisition.join().orElse(null);
		}
		catch (CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
		}
		return this.handle != null;
	}

	@Override
	public long fencingToken() {
		return this.handle.fencingToken();
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return this.handle != null && this.handle.isHeld();
	}

	@Override
	public int holdCount() {
		return (this.handle != null) ? 1 : 0;
	}

	@Override
	public void unlock() {
		LockHandle released = this.handle;
		this.handle = null;
		try {
			released.release().get(30, TimeUnit.SECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (java.util.concurrent.TimeoutException ex) {
			throw new IllegalStateException("The release did not complete in 30 s", ex);
		}
	}

	@Override
	public String key() {
		return this.lock.key();
	}

	@Override
	public String name() {
		return this.lock.name();
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait) {
		return this.lock.acquireAsync(wait);
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait, Duration lease) {
		return this.lock.acquireAsync(wait, lease);
	}

	@Override
	public void lockInterruptibly() {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public boolean tryLock() {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public void checkHeld() {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public void interruptOnLoss() {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public boolean isLocked() {
		return this.lock.isLocked();
	}

	@Override
	public void unlockKeepingFor(Duration keep) {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public void extendLease(Duration lease) {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Not used by the history workers");
	}

}
