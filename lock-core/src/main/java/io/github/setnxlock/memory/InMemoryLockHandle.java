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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockHandle;

/**
 * The {@link LockHandle} of an {@link InMemoryLockRegistry}: a hold of a key of a lock
 * space that belongs to no thread. Every call is answered at once.
 *
 * @author setnx-lock authors
 */
final class InMemoryLockHandle implements LockHandle {

	private final LockSpace space;

	private final MemoryHold hold;

	private final AtomicBoolean released = new AtomicBoolean();

	InMemoryLockHandle(LockSpace space, MemoryHold hold) {
		this.space = space;
		this.hold = hold;
	}

	@Override
	public String key() {
		return this.hold.key;
	}

	@Override
	public String name() {
		return this.hold.name;
	}

	@Override
	public boolean isHeld() {
		return !this.released.get() && this.hold.isHeld(System.nanoTime());
	}

	@Override
	public void checkHeld() {
		checkNotReleased();
		if (!this.hold.isHeld(System.nanoTime())) {
			throw this.hold.lostException("while held");
		}
	}

	@Override
	public long fencingToken() {
		checkNotReleased();
		long token = this.space.fencingToken(this.hold);
		if (token == 0) {
			throw this.hold.lostException("before its fencing token was drawn");
		}
		return token;
	}

	@Override
	public CompletableFuture<Long> fencingTokenAsync() {
		try {
			return CompletableFuture.completedFuture(fencingToken());
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	@Override
	public CompletableFuture<Boolean> extend(Duration lease) {
		LeaseLimits.check("lease", lease);
		if (this.released.get()) {
			return CompletableFuture.completedFuture(false);
		}
		if (!this.hold.isLeased()) {
			return CompletableFuture.failedFuture(new IllegalStateException("Lock '" + key()
					+ "' was taken without a lease of its own and is held until released; only a hold with a lease can be given a new one"));
		}
		return CompletableFuture.completedFuture(this.space.extend(this.hold, lease));
	}

	@Override
	public CompletableFuture<Void> release() {
		return releaseOnce(null);
	}

	@Override
	public CompletableFuture<Void> releaseKeepingFor(Duration keep) {
		LeaseLimits.check("keep", keep);
		return releaseOnce(keep);
	}

	private CompletableFuture<Void> releaseOnce(Duration keep) {
		if (!this.released.compareAndSet(false, true)) {
			return CompletableFuture.failedFuture(alreadyReleased());
		}
		if (!this.space.release(this.hold, keep)) {
			return CompletableFuture.failedFuture(this.hold.lostException("before release()"));
		}
		return CompletableFuture.completedFuture(null);
	}

	private void checkNotReleased() {
		if (this.released.get()) {
			throw alreadyReleased();
		}
	}

	private IllegalStateException alreadyReleased() {
		return new IllegalStateException("The hold of lock '" + key() + "' was released already");
	}

	@Override
	public String toString() {
		return "InMemoryLockHandle[key='" + key() + "', held=" + isHeld() + "]";
	}

}
