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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockHandle;

/**
 * The {@link LockHandle} of an asynchronous hold: the hold and the engine that releases
 * it, and a flag that lets it be released once.
 *
 * @author setnx-lock authors
 */
final class AsyncLockHandle implements LockHandle {

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
		checkNotReleased();
		if (this.hold.isLost(System.nanoTime())) {
			throw this.hold.lostException("while held");
		}
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
		if (this.released.get()) {
			return CompletableFuture.completedFuture(false);
		}
		return this.engine.extend(this.hold, lease);
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
		return this.engine.releaseAsync(this.hold, keep);
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
		return "AsyncLockHandle[key='" + key() + "', held=" + isHeld() + "]";
	}

}
