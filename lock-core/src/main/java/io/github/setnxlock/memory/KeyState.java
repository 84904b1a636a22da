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
import java.util.ArrayDeque;
import java.util.List;

/**
 * What a {@link LockSpace} knows of one key: its holder, and who waits for it. Guarded by
 * the space's monitor: every method is called with it held.
 *
 * @author setnx-lock authors
 */
final class KeyState {

	/** The last hold taken; the key is free once it is released or its lease ended. */
	MemoryHold holder;

	int threadWaiters;

	final ArrayDeque<AsyncWaiter> asyncWaiters = new ArrayDeque<>();

	boolean isFree(long nowNanos) {
		return this.holder == null || !this.holder.isHeld(nowNanos);
	}

	/**
	 * Whether nobody holds or waits for the key, so the space can forget it.
	 */
	boolean isIdle(long nowNanos) {
		return isFree(nowNanos) && this.threadWaiters == 0 && this.asyncWaiters.isEmpty();
	}

	/**
	 * Make a new hold the key's holder; a lease of its own ends on the space's timer.
	 */
	MemoryHold take(String key, String name, Duration lease, long nowNanos, LockSpace space) {
		MemoryHold hold = new MemoryHold(key, name, lease, nowNanos);
		this.holder = hold;
		if (lease != null) {
			space.scheduleLeaseEnd(hold, nowNanos);
		}
		return hold;
	}

	/**
	 * Give a free key to the first asynchronous waiter still in line. The completions are
	 * added to {@code grants}, for the space to run on a callback thread once it has let
	 * its monitor go.
	 */
	void handOff(long nowNanos, List<Runnable> grants, LockSpace space) {
		while (isFree(nowNanos) && !this.asyncWaiters.isEmpty()) {
			AsyncWaiter waiter = this.asyncWaiters.poll();
			if (waiter.granted.isDone()) {
				continue;
			}
			if (waiter.deadline != null) {
				waiter.deadline.cancel(false);
			}
			MemoryHold hold = take(waiter.key, waiter.name, waiter.lease, nowNanos, space);
			grants.add(() -> {
				if (!waiter.granted.complete(hold)) {
					// Given up a moment ago: nobody else can release it.
					space.release(hold, null);
				}
			});
		}
	}

}
