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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What a {@link LockSpace} knows of one key: its holder, and the one line of threads and
 * asynchronous acquisitions that wait for it. A free key goes to the head of the line,
 * explicitly, before anyone new can take it. Guarded by the space's monitor: every method
 * is called with it held.
 *
 * @author setnx-lock authors
 */
final class KeyState {

	private static final Log logger = LogFactory.getLog(InMemoryLockRegistry.class);

	/** The last hold taken; the key is free once it is released, expired or abandoned. */
	MemoryHold holder;

	/**
	 * Who waits, first come first served; a thread leaves it itself when its wait ends.
	 */
	final ArrayDeque<Waiter> line = new ArrayDeque<>();

	boolean isFree(long nowNanos) {
		return this.holder == null || !this.holder.isHeld(nowNanos);
	}

	/**
	 * Whether nobody holds or waits for the key, so the space can forget it.
	 */
	boolean isIdle(long nowNanos) {
		return isFree(nowNanos) && this.line.isEmpty();
	}

	/**
	 * Make a new hold the key's holder; a lease of its own ends on the space's timer.
	 */
	MemoryHold take(String key, String name, Duration lease, Thread owner, long nowNanos, LockSpace space) {
		MemoryHold hold = new MemoryHold(key, name, lease, owner, nowNanos);
		this.holder = hold;
		if (lease != null) {
			space.scheduleLeaseEnd(hold, nowNanos);
		}
		return hold;
	}

	/**
	 * Bring the key up to date before anyone looks at it: tell a holder found lost, hand
	 * a free key to the first in line still waiting, and have the space watch a holder
	 * that only its thread's death can end while others wait. What must not run under the
	 * monitor is added to {@code callbacks}. Afterwards a free key has nobody in line.
	 */
	void settle(long nowNanos, List<Runnable> callbacks, LockSpace space) {
		MemoryHold current = this.holder;
		if (current != null && !current.hasEnded() && !current.lossReported && !current.isHeld(nowNanos)) {
			current.lossReported = true;
			if (current.onLoss != null) {
				callbacks.add(current.onLoss);
				current.onLoss = null;
			}
			if (current.isAbandoned()) {
				// Named as the engine's logs name locks: keys may hold personal data.
				String lock = current.name.isEmpty() ? current.key : current.name;
				logger.warn("Thread '" + current.owner.getName() + "' died holding lock '" + lock
						+ "' without a lease of its own; the in-memory registry ends the hold");
			}
		}
		while (isFree(nowNanos) && !this.line.isEmpty()) {
			Waiter next = this.line.poll();
			if (!next.hasGivenUp()) {
				next.handOver(take(next.key, next.name, next.lease, next.owner(), nowNanos, space), callbacks, space);
			}
		}
		space.watchOwner(this);
	}

}
