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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One key's state in this JVM.
 * <p>
 * At most one thread at a time owns the key's <em>slot</em>: it is acquiring the key in
 * Redis or holds it. Other threads of this JVM wait for the slot rather than asking
 * Redis. The slot is free again when its owner unlocks, fails to acquire, or loses its
 * hold (its lease ends, or a renewal finds the key taken): a holder that never calls
 * {@code unlock()} does not block this JVM for longer than its lease.
 * <p>
 * The slot owner, while someone else holds the key in Redis, waits for the key's release
 * message: each message counts one <em>release generation</em> up, and a waiter that
 * noted the generation before it asked Redis waits only while it stays the same, so a
 * message that arrives between the answer and the wait is not missed.
 * <p>
 * Waiting uses {@link Condition}s, not {@code synchronized}, so virtual threads do not
 * pin their carrier.
 *
 * @author setnx-lock authors
 */
public final class KeyState {

	/**
	 * What {@link #takeHandoff()} answers when the slot was not handed over after an
	 * announced release.
	 */
	static final long NO_HANDOFF = -1;

	private final ReentrantLock mutex = new ReentrantLock();

	/** Guarded by {@link #mutex}. */
	private Object slotOwner;

	/** Guarded by {@link #mutex}. */
	private long handoffGeneration = NO_HANDOFF;

	/**
	 * The threads waiting for the slot, in order, each with the condition it waits on: a
	 * handoff wakes the one thread it concerns rather than every waiter of the key.
	 * Guarded by {@link #mutex}.
	 */
	private final LinkedHashMap<Object, Condition> slotQueue = new LinkedHashMap<>();

	/**
	 * The holds of this key by thread: the slot owner's, and those of threads whose hold
	 * was lost and who have not yet unlocked.
	 */
	private final Map<Object, Hold> holds = new ConcurrentHashMap<>();

	/** The key's release messages. */
	final ReleaseSignal releases = new ReleaseSignal();

	/** Guarded by the map's compute. */
	int references;

	/**
	 * Wait for the slot and take it. Waiting threads get the slot in the order they came,
	 * handed over directly, so a thread that releases and locks again at once cannot
	 * overtake the others.
	 * @param owner who takes the slot
	 * @param startNanos when the wait began
	 * @param waitNanos {@link AcquireLoop#FOREVER}, {@code 0} for no wait, or a time
	 * @param interruptible whether an interrupt ends the wait; if not, it is kept for the
	 * caller to see afterwards
	 * @return {@code true} when the slot is taken, {@code false} when the wait ended
	 * @throws InterruptedException if interruptible and interrupted
	 */
	boolean claimSlot(Object owner, long startNanos, long waitNanos, boolean interruptible)
			throws InterruptedException {
		boolean interrupted = false;
		this.mutex.lock();
		try {
			if (this.slotOwner == null && this.slotQueue.isEmpty()) {
				this.slotOwner = owner;
				return true;
			}
			Condition woken = this.mutex.newCondition();
			this.slotQueue.put(owner, woken);
			boolean taken = false;
			try {
				while (this.slotOwner != owner) {
					long pause = Long.MAX_VALUE;
					Hold ownerHold = (this.slotOwner != null) ? this.holds.get(this.slotOwner) : null;
					if (ownerHold != null) {
						long now = System.nanoTime();
						if (ownerHold.isLost(now)) {
							if (firstWaiter() == owner) {
								// The owner lost its hold and may never unlock: go on
								// without it.
								this.slotOwner = owner;
								break;
							}
						}
						else {
							pause = ownerHold.lease().deadlineNanos() - now;
						}
					}
					if (waitNanos != AcquireLoop.FOREVER) {
						long remaining = startNanos + waitNanos - System.nanoTime();
						if (remaining <= 0) {
							return false;
						}
						pause = Math.min(pause, remaining);
					}
					try {
						woken.awaitNanos(Math.max(pause, 1));
					}
					catch (InterruptedException ex) {
						if (interruptible) {
							throw ex;
						}
						interrupted = true;
					}
				}
				taken = true;
				return true;
			}
			finally {
				this.slotQueue.remove(owner);
				if (!taken) {
					if (this.slotOwner == owner) {
						// Handed over just as the wait ended: pass it on.
						this.slotOwner = firstWaiter();
						wakeOwner();
					}
					else {
						// Whoever is first in line now watches the owner's hold.
						wakeFirstWaiter();
					}
				}
			}
		}
		finally {
			this.mutex.unlock();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Return, once, the release generation at which the previous slot owner released the
	 * key in Redis and handed the slot to the caller; the caller then waits for that
	 * release's message, which reaches the waiters of other JVMs at the same time, before
	 * it asks Redis, so that it does not win every handoff by being first.
	 * @return the generation, or {@link #NO_HANDOFF} when the slot was not handed over
	 * after an announced release
	 */
	long takeHandoff() {
		this.mutex.lock();
		try {
			long generation = this.handoffGeneration;
			this.handoffGeneration = NO_HANDOFF;
			return generation;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Record the outcome of the slot owner's acquisition.
	 * @param owner the slot owner
	 * @param hold its new hold, or {@code null} when it did not acquire (the slot is
	 * freed)
	 */
	void acquired(Object owner, Hold hold) {
		if (hold != null) {
			this.holds.put(owner, hold);
			// Waiters that came while the owner was still acquiring wait without a
			// bound: let them bound their wait by the new hold's deadline.
			holdChanged();
		}
		else {
			freeSlot(owner, NO_HANDOFF);
		}
	}

	/**
	 * Drop a thread's hold, freeing the slot if the thread still owns it.
	 * @param owner the owner whose hold ends
	 * @param generationBeforeRelease the release generation noted before the release was
	 * sent, so that its message counts even if it arrived already; or {@link #NO_HANDOFF}
	 * when the release was not announced
	 */
	void released(Object owner, long generationBeforeRelease) {
		this.holds.remove(owner);
		freeSlot(owner, generationBeforeRelease);
	}

	/**
	 * Let the threads waiting for the slot look at its owner's hold again: it was taken,
	 * or lost.
	 */
	void holdChanged() {
		this.mutex.lock();
		try {
			wakeFirstWaiter();
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Return the holds of this key.
	 * @return the holds, a snapshot
	 */
	List<Hold> holds() {
		return List.copyOf(this.holds.values());
	}

	/**
	 * Return the given owner's hold.
	 * @param owner the owner
	 * @return its hold, or {@code null}
	 */
	Hold holdOf(Object owner) {
		return this.holds.get(owner);
	}

	private void freeSlot(Object owner, long generationBeforeRelease) {
		this.mutex.lock();
		try {
			if (this.slotOwner == owner) {
				this.slotOwner = firstWaiter();
				if (this.slotOwner != null) {
					this.handoffGeneration = generationBeforeRelease;
				}
				wakeOwner();
			}
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Return how many owners wait for a release message of this key: a test's handshake
	 * that a waiter is parked on Redis's answer, not still on its way there.
	 * @return the number of waiters
	 */
	public int releaseWaiters() {
		return this.releases.waiters();
	}

	/**
	 * Return how many threads wait for the slot.
	 * @return the number of waiting threads
	 */
	public int slotWaiters() {
		this.mutex.lock();
		try {
			return this.slotQueue.size();
		}
		finally {
			this.mutex.unlock();
		}
	}

	private Object firstWaiter() {
		return this.slotQueue.isEmpty() ? null : this.slotQueue.keySet().iterator().next();
	}

	/**
	 * Wake the slot's new owner, if it is still waiting. Called with {@link #mutex} held.
	 */
	private void wakeOwner() {
		Condition owner = (this.slotOwner != null) ? this.slotQueue.get(this.slotOwner) : null;
		if (owner != null) {
			owner.signal();
		}
	}

	/**
	 * Wake the first waiter that is not the slot's owner: the only one that bounds its
	 * wait by the owner's hold and takes the slot from an owner whose hold is lost. The
	 * others wait their turn, each until its own time is up. Called with {@link #mutex}
	 * held.
	 */
	private void wakeFirstWaiter() {
		for (Map.Entry<Object, Condition> waiter : this.slotQueue.entrySet()) {
			if (waiter.getKey() != this.slotOwner) {
				waiter.getValue().signal();
				return;
			}
		}
	}

}
