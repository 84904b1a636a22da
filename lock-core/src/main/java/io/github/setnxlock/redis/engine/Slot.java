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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.LongFunction;
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
 * A waiter is a parked thread (the {@link java.util.concurrent.locks.Lock} view), waiting
 * on a {@link Condition}, not {@code synchronized}, so virtual threads do not pin their
 * carrier; or an asynchronous claim, a future completed when the slot is handed to it,
 * which holds no thread: what a parked first waiter does in its timed wait (watch the
 * owner's hold, give up at its own deadline), a claim does in {@link #recheck}, which it
 * asks its timer to call at the times the slot names.
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
	private SlotHandoff handoff = SlotHandoff.NONE;

	/**
	 * The lease handed over with the slot by a local hand-off. Guarded by {@link #mutex}.
	 */
	private Lease handedLease;

	/**
	 * Who waits for the slot, in order, each with the condition it waits on (a handoff
	 * wakes the one waiter it concerns) and whether it takes a local hand-off. Guarded by
	 * {@link #mutex}.
	 */
	private final LinkedHashMap<Object, SlotWaiter> queue = new LinkedHashMap<>();

	/**
	 * Claims granted or given up under {@link #mutex}, completed once it is let go.
	 * Guarded by {@link #mutex}.
	 */
	private final List<Runnable> settled = new ArrayList<>();

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
			SlotWaiter waiter = new SlotWaiter(this.mutex.newCondition(), takesHandoff, null, Waits.NO_DEADLINE, null);
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
						waiter.woken.awaitNanos(Math.max(pause, 1));
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
			unlock();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Return, once, how the previous owner handed the slot to the caller after releasing
	 * the key in Redis (see {@link KeyState#takeHandoff()}).
	 * @return the hand-over, or {@link SlotHandoff#NONE}
	 */
	SlotHandoff takeHandoff() {
		this.mutex.lock();
		try {
			SlotHandoff handoff = this.handoff;
			this.handoff = SlotHandoff.NONE;
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
							? new SlotHandoff(generationBeforeRelease, this.run.remoteKnown()) : SlotHandoff.NONE;
				}
				wakeOwner();
			}
		}
		finally {
			unlock();
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
			if (this.owner != hold.owner() || next == null || !this.queue.get(next).takesHandoff
					|| !handoff.allows(this.run, hold, System.nanoTime())) {
				return false;
			}
			this.owner = next;
			this.handedLease = hold.lease();
			this.handoff = SlotHandoff.NONE;
			wakeOwner();
			return true;
		}
		finally {
			unlock();
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
			unlock();
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
	 * Wake the slot's new owner, if it is still waiting: signal its thread, or take its
	 * claim out of the line and grant it. Called with {@link #mutex} held.
	 */
	private void wakeOwner() {
		SlotWaiter owner = (this.owner != null) ? this.queue.get(this.owner) : null;
		if (owner == null) {
			return;
		}
		if (owner.granted == null) {
			owner.woken.signal();
			return;
		}
		this.queue.remove(this.owner);
		settle(owner, true);
	}

	/**
	 * Wake the first waiter that is not the slot's owner: the only one that bounds its
	 * wait by the owner's hold and takes the slot from an owner whose hold is lost. The
	 * others wait their turn, each until its own time is up. A claim there looks at once
	 * (see {@link #recheck}). Called with {@link #mutex} held.
	 */
	private void wakeFirstWaiter() {
		for (Map.Entry<Object, SlotWaiter> waiter : this.queue.entrySet()) {
			if (waiter.getKey() != this.owner) {
				if (waiter.getValue().granted == null) {
					waiter.getValue().woken.signal();
				}
				else {
					look(waiter.getKey(), waiter.getValue());
				}
				return;
			}
		}
	}

	/**
	 * Note a claim's outcome, to be completed once {@link #mutex} is let go (what the
	 * claimant does next asks Redis, and may come back here). Called with the mutex held.
	 */
	private void settle(SlotWaiter claim, boolean granted) {
		if (claim.recheck != null) {
			claim.recheck.cancel(false);
		}
		this.settled.add(() -> claim.granted.complete(granted));
	}

	/**
	 * Let go of {@link #mutex}, then complete the claims settled under it.
	 */
	private void unlock() {
		List<Runnable> completions = null;
		if (!this.settled.isEmpty() && this.mutex.getHoldCount() == 1) {
			completions = new ArrayList<>(this.settled);
			this.settled.clear();
		}
		this.mutex.unlock();
		if (completions != null) {
			completions.forEach(Runnable::run);
		}
	}

	/**
	 * Claim the slot without waiting for it: the future completes with {@code true} once
	 * the claimant owns the slot (perhaps with the key, see {@link #takeHandedLease()}),
	 * or {@code false} when its deadline passed first or it was {@link #withdraw
	 * withdrawn}. It holds no thread meanwhile.
	 * @param owner who claims the slot
	 * @param deadlineNanos the {@link System#nanoTime()} to give up at, or
	 * {@link Waits#NO_DEADLINE}; a deadline already passed makes one try
	 * @param takesHandoff whether the owner takes the key handed over by a local release
	 * @param timer schedules a call of {@link #recheck} with the owner at a given
	 * {@link System#nanoTime()}: the claimant's deadline, or the end of the owner's hold
	 * it watches
	 * @return the claim's outcome
	 */
	CompletableFuture<Boolean> claimAsync(Object owner, long deadlineNanos, boolean takesHandoff,
			LongFunction<Future<?>> timer) {
		this.mutex.lock();
		try {
			if (this.owner == null && this.queue.isEmpty()) {
				this.owner = owner;
				return CompletableFuture.completedFuture(Boolean.TRUE);
			}
			SlotWaiter claim = new SlotWaiter(null, takesHandoff, new CompletableFuture<>(), deadlineNanos, timer);
			this.queue.put(owner, claim);
			look(owner, claim);
			return claim.granted;
		}
		finally {
			unlock();
		}
	}

	/**
	 * Look again at an asynchronous claim (its timer calls this): give up when its
	 * deadline passed, take the slot when it is first in line and the owner's hold is
	 * lost, else wait on to the earlier of its deadline and the end of the owner's hold.
	 * @param owner the claimant
	 */
	void recheck(Object owner) {
		this.mutex.lock();
		try {
			SlotWaiter claim = this.queue.get(owner);
			if (claim != null && claim.granted != null) {
				claim.recheck = null;
				claim.recheckAtNanos = Waits.NO_DEADLINE;
				look(owner, claim);
			}
		}
		finally {
			unlock();
		}
	}

	/**
	 * Give up an asynchronous claim.
	 * @param owner the claimant
	 * @return {@code false} if it owns the slot already, and must free it; {@code true}
	 * otherwise: it was taken out of the line (its future completes with {@code false}),
	 * or had left it already
	 */
	boolean withdraw(Object owner) {
		this.mutex.lock();
		try {
			if (this.owner == owner) {
				return false;
			}
			SlotWaiter claim = this.queue.remove(owner);
			if (claim != null) {
				settle(claim, false);
				wakeFirstWaiter();
			}
			return true;
		}
		finally {
			unlock();
		}
	}

	/**
	 * What a parked thread's timed wait does, for a claim in line. Called with
	 * {@link #mutex} held.
	 */
	private void look(Object owner, SlotWaiter claim) {
		long now = System.nanoTime();
		long next = claim.deadlineNanos;
		if (firstWaiter() == owner) {
			Hold ownerHold = (this.owner != null) ? this.holds.apply(this.owner) : null;
			if (ownerHold != null && ownerHold.isLost(now)) {
				// The owner lost its hold and may never release: go on without it.
				this.owner = owner;
				this.queue.remove(owner);
				settle(claim, true);
				return;
			}
			long holdEnd = (ownerHold != null) ? ownerHold.lease().deadlineNanos() : Waits.NO_DEADLINE;
			if (holdEnd != Waits.NO_DEADLINE && (next == Waits.NO_DEADLINE || holdEnd - next < 0)) {
				next = holdEnd;
			}
		}
		if (claim.deadlineNanos != Waits.NO_DEADLINE && claim.deadlineNanos - now <= 0) {
			this.queue.remove(owner);
			settle(claim, false);
			wakeFirstWaiter();
			return;
		}
		if (next != Waits.NO_DEADLINE && next != claim.recheckAtNanos) {
			if (claim.recheck != null) {
				claim.recheck.cancel(false);
			}
			claim.recheckAtNanos = next;
			claim.recheck = claim.timer.apply(next);
		}
	}

}
