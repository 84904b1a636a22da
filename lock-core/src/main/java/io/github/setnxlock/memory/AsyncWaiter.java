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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

import io.github.setnxlock.LeaseLimits;

/**
 * An asynchronous acquisition in line for a key of a {@link LockSpace}: completed with
 * its hold when the key is handed to it, with {@code null} when its wait ends, and
 * cancelled by a caller who gives up. It parks no thread.
 *
 * @author setnx-lock authors
 */
final class AsyncWaiter extends Waiter {

	final CompletableFuture<MemoryHold> granted = new CompletableFuture<>();

	/** The end of its wait, on the timer; guarded by the space's monitor. */
	ScheduledFuture<?> deadline;

	AsyncWaiter(String key, String name, Duration lease) {
		super(key, name, lease);
	}

	/**
	 * Take the key at once if nobody holds it or waits for it, else join the line.
	 * @return the hold, or {@code null} if the key stayed held for the whole wait;
	 * cancelling it gives the acquisition up
	 */
	CompletableFuture<MemoryHold> enter(LockSpace space, long waitNanos) {
		MemoryHold taken = space.withCallbacks((callbacks) -> {
			long now = System.nanoTime();
			KeyState state = space.settled(this.key, now, callbacks);
			if (state.isFree(now)) {
				return state.take(this.key, this.name, this.lease, null, now, space);
			}
			if (waitNanos != 0) {
				state.line.add(this);
				space.watchOwner(state);
				if (waitNanos != LeaseLimits.NO_LIMIT_NANOS) {
					this.deadline = Timers.schedule(() -> giveUp(space), waitNanos);
				}
			}
			space.dropIfUnused(this.key);
			return null;
		});
		if (taken != null || waitNanos == 0) {
			return CompletableFuture.completedFuture(taken);
		}
		this.granted.whenComplete((hold, failure) -> {
			if (this.granted.isCancelled()) {
				giveUp(space);
			}
		});
		return this.granted;
	}

	/**
	 * Leave the line, if still in it, and complete with no hold: the wait ended, or the
	 * caller gave up. A wait that ends just as the key comes free gets the key if it is
	 * first in line.
	 */
	private void giveUp(LockSpace space) {
		boolean inLine = space.withCallbacks((callbacks) -> {
			if (this.deadline != null) {
				this.deadline.cancel(false);
			}
			KeyState state = space.stateOf(this.key);
			if (state == null) {
				return false;
			}
			if (!hasGivenUp()) {
				state.settle(System.nanoTime(), callbacks, space);
			}
			boolean removed = state.line.remove(this);
			space.dropIfUnused(this.key);
			return removed;
		});
		if (inLine) {
			// Handed no hold: one handed meanwhile completes the waiter itself.
			Timers.callback(() -> this.granted.complete(null));
		}
	}

	@Override
	Thread owner() {
		return null;
	}

	@Override
	boolean hasGivenUp() {
		return this.granted.isDone();
	}

	@Override
	void handOver(MemoryHold hold, List<Runnable> callbacks, LockSpace space) {
		if (this.deadline != null) {
			this.deadline.cancel(false);
		}
		// Completed off the monitor, so that no continuation runs inside a release.
		callbacks.add(() -> {
			if (!this.granted.complete(hold)) {
				// Given up a moment ago: nobody else can release it.
				space.release(hold, null);
			}
		});
	}

}
