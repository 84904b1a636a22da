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
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.github.setnxlock.redis.protocol.Lease;

/**
 * A key's slot in this JVM: at most one owner at a time is acquiring the key in Redis or
 * holds it, and the others wait in line for the slot rather than asking Redis.
 * <p>
 * The slot passes in order: a release hands it to the first in line, so an owner that
 * releases and locks again at once cannot overtake the others. It passes with the Redis
 * key itself when the release hands the key over locally (see {@link LocalHandoff}): the
 * new owner then holds the lock without asking Redis. An owner whose hold is lost may
 * never release, so the first in line watches its hold and takes the slot once it is
 * lost.
 * <p>
 * Waiting uses {@link Condition}s, not {@code synchronized}, so virtual threads do not
 * pin their carrier.
 *
 * @author setnx-lock authors
 */
final class Slot {

	private final ReentrantLock mutex = new ReentrantLock();

	/** The holds by owner, to watch the slot owner's. */
	private final Function<Object, Hold> holds;

	/** Guarded by {@link #mutex}. */
	private Object owner;

	/**
	 * How the slot was last handed over after a release in Redis. Guarded by
	 * {@link #mutex}.
	 */
	private Handoff handoff = Handoff.NONE;

	/**
	 * The lease handed over with the slot by a local hand-off. Guarded by {@link #mutex}.
	 */
	private Lease handedLease;

	/**
	 * Who waits for the slot, in order, each with the condition it waits on (a handoff
	 * wakes the one waiter it concerns) and whether it takes a local hand-off. Guarded by
	 * {@link #mutex}.
	 */
	private final LinkedHashMap<Object, Waiter> queue = new LinkedHashMap<>();

	/** The local hand-offs of the key since it was last taken in Redis. */
	final LocalHandoff.Run run = new LocalHandoff.Run();

	Slot(Function<Object, Hold> holds) {
		this.holds = holds;
	}

	/**
	 * Wait for the slot and take it.
	 * @param owner who takes the slot
	 * @param startNanos when the wait began
	 * @param waitNanos {@link AcquireLoop#FOREVER}, {@code 0} for no wait, or a time
	 * @param interruptible whether an interrupt ends the wait; if not, it is kept for the
	 * caller to see afterwards
	 * @param takesHandoff whether the owner takes the key handed over by a local release
	 * (it asks for the registry's renewed lease)
	 * @return {@code true} when the slot is taken, {@code false} when the wait ended
	 * @throws InterruptedException if interruptible and interrupted before the slot was
	 * handed over
	 */
	boolean claim(Object owner, long startNanos, long waitNanos, boolean interruptible, boolean takesHandoff)
			throws InterruptedException {
		boolean interrupted = false;
		this.mutex.lock();
		try {
			if (this.owner == null && this.queue.isEmpty()) {
				this.owner = owner;
				return true;
			}
			Waiter waiter = new Waiter(this.mutex.newCondition(), takesHandoff);
			this.queue.put(owner, waiter);
			boolean taken = false;
			try {
				while (this.owner != owner) {
					long pause = Long.MAX_VALUE;
					Hold ownerHold = (this.owner != null) ? this.holds.apply(this.owner) : null;
					if (ownerHold != null) {
						long now = System.nanoTime();
						if (ownerHold.isLost(now)) {
							if (firstWaiter() == owner) {
								// The owner lost its hold and may never unlock: go on
								// without it.
								this.owner = owner;
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
						waiter.woken().awaitNanos(Math.max(pause, 1));
					}
					catch (InterruptedException ex) {
						// Handed the slot meanwhile, perhaps with the key: take it, and
						// keep the interrupt for the caller.
						if (interruptible && this.owner != owner) {
							throw ex;
						}
						interrupted = true;
					}
				}
				taken = true;
				return true;
			}
			finally {
				this.queue.remove(owner);
				if (!taken) {
					// Whoever is first in line now watches the owner's hold.
					wakeFirstWaiter();
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
	 * Return, once, how the previous owner handed the slot to the caller after releasing
	 * the key in Redis (see {@link KeyState#takeHandoff()}).
	 * @return the hand-over, or {@link Handoff#NONE}
	 */
	Handoff takeHandoff() {
		this.mutex.lock();
		try {
			Handoff handoff = this.handoff;
			this.handoff = Handoff.NONE;
			return handoff;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Return, once, the lease the previous owner handed over with the slot.
	 * @return the lease, or {@code null} when the key was not handed over
	 */
	Lease takeHandedLease() {
		this.mutex.lock();
		try {
			Lease lease = this.handedLease;
			this.handedLease = null;
			return lease;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Free the slot of an owner, handing it to the first in line.
	 * @param owner the owner
	 * @param generationBeforeRelease see {@link KeyState#released(Object, long)}
	 */
	void free(Object owner, long generationBeforeRelease) {
		this.mutex.lock();
		try {
			if (this.owner == owner) {
				this.owner = firstWaiter();
				if (this.owner != null) {
					// An announced release that ended a run of local hand-offs because a
					// waiter elsewhere was known: that waiter's turn.
					this.handoff = (generationBeforeRelease != KeyState.NO_HANDOFF)
							? new Handoff(generationBeforeRelease, this.run.remoteKnown()) : Handoff.NONE;
				}
				wakeOwner();
			}
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Hand the slot and the Redis key of a hold to the first in line, if it takes a local
	 * hand-off and the run allows one more.
	 * @param hold the hold being released, whose owner owns the slot
	 * @param handoff the rule
	 * @return whether the key was handed over: the hold's owner no longer owns the slot
	 */
	boolean handOff(Hold hold, LocalHandoff handoff) {
		this.mutex.lock();
		try {
			Object next = firstWaiter();
			if (this.owner != hold.owner() || next == null || !this.queue.get(next).takesHandoff()
					|| !handoff.allows(this.run, hold, System.nanoTime())) {
				return false;
			}
			this.owner = next;
			this.handedLease = hold.lease();
			this.handoff = Handoff.NONE;
			wakeOwner();
			return true;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Let the first in line look at the owner's hold again: it was taken, or lost.
	 */
	void ownerHoldChanged() {
		this.mutex.lock();
		try {
			wakeFirstWaiter();
		}
		finally {
			this.mutex.unlock();
		}
	}

	int waiters() {
		this.mutex.lock();
		try {
			return this.queue.size();
		}
		finally {
			this.mutex.unlock();
		}
	}

	private Object firstWaiter() {
		return this.queue.isEmpty() ? null : this.queue.keySet().iterator().next();
	}

	/**
	 * Wake the slot's new owner, if it is still waiting. Called with {@link #mutex} held.
	 */
	private void wakeOwner() {
		Waiter owner = (this.owner != null) ? this.queue.get(this.owner) : null;
		if (owner != null) {
			owner.woken().signal();
		}
	}

	/**
	 * Wake the first waiter that is not the slot's owner: the only one that bounds its
	 * wait by the owner's hold and takes the slot from an owner whose hold is lost. The
	 * others wait their turn, each until its own time is up. Called with {@link #mutex}
	 * held.
	 */
	private void wakeFirstWaiter() {
		for (Map.Entry<Object, Waiter> waiter : this.queue.entrySet()) {
			if (waiter.getKey() != this.owner) {
				waiter.getValue().woken().signal();
				return;
			}
		}
	}

	private record Waiter(Condition woken, boolean takesHandoff) {

	}

	/**
	 * How the slot passed after a release in Redis that was announced.
	 *
	 * @param generation the release generation noted before that release, whose message
	 * the new owner waits for; {@link KeyState#NO_HANDOFF} when the release was not
	 * announced
	 * @param yieldTurn whether the new owner lets a waiter of another registry go first
	 * (see {@link AcquireLoop#YIELD_NANOS})
	 */
	record Handoff(long generation, boolean yieldTurn) {

		static final Handoff NONE = new Handoff(KeyState.NO_HANDOFF, false);

		boolean announced() {
			return this.generation != KeyState.NO_HANDOFF;
		}

	}

}
