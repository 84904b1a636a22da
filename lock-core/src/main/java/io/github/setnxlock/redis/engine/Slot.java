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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.engine.Waits.SlotWaiter;
import io.github.setnxlock.redis.engine.Waits.Ticker;
import io.github.setnxlock.redis.engine.Waits.Timer;
import io.github.setnxlock.redis.engine.Waits.UnreachableRedis;

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
 * A waiter is a claim, a future completed when the slot is handed to it, which holds no
 * thread (a thread of the {@link java.util.concurrent.locks.Lock} view parks on its
 * acquisition's future, not here); its timer calls {@link #recheck} at the times the slot
 * names. The slot's mutex is a {@link ReentrantLock}, not {@code synchronized}, so that
 * virtual threads do not pin their carrier.
 * <p>
 * While Redis is known to be unreachable nobody waits in line: the owner is asking Redis
 * or holds the key, and each waiter would only ask Redis after it, one command timeout
 * each, or wait out its time. An owner that comes then and finds the slot taken, and
 * every owner in line when Redis becomes unreachable, leaves the line with
 * {@link UnreachableRedis}; an owner that finds the slot free takes it and asks Redis, so
 * that Redis's return is noticed.
 * <p>
 * The fields that change are guarded by the mutex, and the private methods that touch
 * them run with it held.
 *
 * @author setnx-lock authors
 */
final class Slot {

	private final ReentrantLock mutex = new ReentrantLock();

	/** The holds by owner, to watch the slot owner's. */
	private final Function<Object, Hold> holds;

	/** Why Redis counts as unreachable, or {@code null}. */
	private final Supplier<Throwable> unreachable;

	private Object owner;

	/** Who waits for the slot, in order. */
	private final LinkedHashMap<Object, SlotWaiter> queue = new LinkedHashMap<>();

	/** Claims granted or given up under the mutex, completed once it is let go. */
	private final List<Runnable> settled = new ArrayList<>();

	/** The first in line's scheduled look at the owner's hold, and when it is due. */
	private Future<?> holdWatch;

	private long holdWatchAtNanos = Waits.NO_DEADLINE;

	private final Ticker ticker;

	/** The local hand-offs of the key since it was last taken in Redis. */
	final LocalHandoff.Run run = new LocalHandoff.Run();

	Slot(Function<Object, Hold> holds, Supplier<Throwable> unreachable, Ticker ticker) {
		this.holds = holds;
		this.unreachable = unreachable;
		this.ticker = ticker;
	}

	/** Free an owner's slot for the first in line; see {@link KeyState#released}. */
	void free(Object owner, long generationBeforeRelease) {
		locked(() -> {
			if (this.owner == owner) {
				this.owner = firstWaiter();
				// An announced release that ended a run of local hand-offs because a
				// waiter elsewhere was known: that waiter's turn.
				wakeOwner((generationBeforeRelease != KeyState.NOT_ANNOUNCED)
						? new SlotTurn(generationBeforeRelease, this.run.remoteKnown(), null) : SlotTurn.NONE);
			}
		});
	}

	/**
	 * Hand the slot and the Redis key of a hold being released to the first in line, if
	 * it takes a local hand-off and the run allows one more; {@code true} if handed over.
	 */
	boolean handOff(Hold hold, LocalHandoff handoff) {
		return lockedGet(() -> {
			Object next = firstWaiter();
			if (this.owner != hold.owner() || next == null || !this.queue.get(next).takesHandoff
					|| !handoff.allows(this.run, hold, this.ticker.read())) {
				return false;
			}
			this.owner = next;
			wakeOwner(new SlotTurn(KeyState.NOT_ANNOUNCED, false, hold.lease()));
			return true;
		});
	}

	/** Let the first in line look at the owner's hold again: it was taken, or lost. */
	void ownerHoldChanged() {
		locked(this::wakeFirstWaiter);
	}

	/** Redis became unreachable: everyone in line leaves it (see the class comment). */
	void redisUnreachable() {
		locked(() -> {
			Throwable unreachable = this.unreachable.get();
			if (unreachable != null) {
				leaveLine(unreachable);
			}
		});
	}

	/** Take every claim out of the line, failed. */
	private void leaveLine(Throwable unreachable) {
		for (SlotWaiter claim : this.queue.values()) {
			cancelRecheck(claim);
			this.settled.add(() -> claim.granted.completeExceptionally(new UnreachableRedis(unreachable)));
		}
		this.queue.clear();
	}

	int waiters() {
		return lockedGet(this.queue::size);
	}

	/** How many wait for the key: in line, and the owner while it is still acquiring. */
	int waiting() {
		return lockedGet(() -> {
			boolean acquiring = this.owner != null && this.holds.apply(this.owner) == null;
			return this.queue.size() + (acquiring ? 1 : 0);
		});
	}

	private Object firstWaiter() {
		return this.queue.isEmpty() ? null : this.queue.keySet().iterator().next();
	}

	/** Grant the slot's new owner its claim, taken out of the line, with its turn. */
	private void wakeOwner(SlotTurn turn) {
		SlotWaiter owner = (this.owner != null) ? this.queue.remove(this.owner) : null;
		if (owner != null) {
			settle(owner, turn);
		}
	}

	/**
	 * Let the first in line look at once (see {@link #recheck}): only it bounds its wait
	 * by the owner's hold and takes the slot from an owner whose hold is lost. The others
	 * wait their turn, each until its own time is up.
	 */
	private void wakeFirstWaiter() {
		Object first = firstWaiter();
		if (first != null) {
			look(first, this.queue.get(first));
		}
	}

	/**
	 * Note a claim's outcome, the turn granted or {@code null}, to complete once the
	 * mutex is let go: what the claimant does next asks Redis, and may come back here.
	 */
	private void settle(SlotWaiter claim, SlotTurn granted) {
		cancelRecheck(claim);
		this.settled.add(() -> claim.granted.complete(granted));
	}

	private static void cancelRecheck(SlotWaiter claim) {
		if (claim.recheck != null) {
			claim.recheck.cancel(false);
		}
	}

	private void locked(Runnable action) {
		this.mutex.lock();
		try {
			action.run();
		}
		finally {
			unlock();
		}
	}

	private <T> T lockedGet(Supplier<T> action) {
		this.mutex.lock();
		try {
			return action.get();
		}
		finally {
			unlock();
		}
	}

	/** Let go of the mutex, then complete the claims settled under it. */
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
	 * Claim the slot, holding no thread: the future completes with the claimant's turn
	 * once it owns the slot (perhaps with the key handed over), {@code null} when its
	 * deadline ({@link Waits#NO_DEADLINE} for none; one already passed makes one try)
	 * passed first or it was {@link #withdraw withdrawn}; it fails with
	 * {@link UnreachableRedis} when Redis is known to be unreachable while it waits. The
	 * timer runs the looks at the line: at the claimant's deadline, and at the end of the
	 * owner's hold that the first in line watches.
	 */
	CompletableFuture<SlotTurn> claimAsync(Object owner, long deadlineNanos, boolean takesHandoff, Timer timer) {
		return lockedGet(() -> {
			if (this.owner == null && this.queue.isEmpty()) {
				this.owner = owner;
				return CompletableFuture.completedFuture(SlotTurn.NONE);
			}
			SlotWaiter claim = new SlotWaiter(takesHandoff, new CompletableFuture<>(), deadlineNanos, timer);
			this.queue.put(owner, claim);
			look(owner, claim);
			return claim.granted;
		});
	}

	/**
	 * Look again at a claim whose deadline came (its timer calls this): it gives up, or
	 * takes the slot if it is first in line and the owner's hold is lost.
	 */
	private void recheck(Object owner) {
		locked(() -> {
			SlotWaiter claim = this.queue.get(owner);
			if (claim != null) {
				claim.recheck = null;
				look(owner, claim);
			}
		});
	}

	private void holdWatchDue() {
		locked(() -> {
			this.holdWatch = null;
			this.holdWatchAtNanos = Waits.NO_DEADLINE;
			wakeFirstWaiter();
		});
	}

	/**
	 * Give up an asynchronous claim: {@code false} if it owns the slot already, and must
	 * free it; else it was taken out of the line (its future completes with {@code null})
	 * or had left it already.
	 */
	boolean withdraw(Object owner) {
		return lockedGet(() -> {
			if (this.owner == owner) {
				return false;
			}
			SlotWaiter claim = this.queue.remove(owner);
			if (claim != null) {
				settle(claim, null);
				wakeFirstWaiter();
			}
			return true;
		});
	}

	/**
	 * Look at a claim in line: give up when its deadline passed; when it is first in
	 * line, take the slot if the owner's hold is lost, else watch that hold's end.
	 */
	private void look(Object owner, SlotWaiter claim) {
		Throwable unreachable = this.unreachable.get();
		if (unreachable != null) {
			leaveLine(unreachable);
			return;
		}
		long now = this.ticker.read();
		if (firstWaiter() == owner) {
			Hold ownerHold = (this.owner != null) ? this.holds.apply(this.owner) : null;
			if (ownerHold != null && ownerHold.isLost(now)) {
				// The owner lost its hold and may never release: go on without it.
				this.owner = owner;
				this.queue.remove(owner);
				settle(claim, SlotTurn.NONE);
				return;
			}
			if (ownerHold != null) {
				watchHoldUntil(ownerHold.lease().deadlineNanos(), claim.timer);
			}
		}
		if (claim.deadlineNanos != Waits.NO_DEADLINE && claim.deadlineNanos - now <= 0) {
			this.queue.remove(owner);
			settle(claim, null);
			wakeFirstWaiter();
			return;
		}
		if (claim.deadlineNanos != Waits.NO_DEADLINE && claim.recheck == null) {
			claim.recheck = claim.timer.schedule(() -> recheck(owner), claim.deadlineNanos);
		}
	}

	/**
	 * Make sure the first in line looks at the owner's hold by the given time. One watch
	 * serves the slot, whoever is first: it stays across hand-overs while it comes due no
	 * later than needed (an early one only looks, and watches again), so that a hand-over
	 * moves no timer.
	 */
	private void watchHoldUntil(long atNanos, Timer timer) {
		if (this.holdWatch == null || atNanos - this.holdWatchAtNanos < 0) {
			if (this.holdWatch != null) {
				this.holdWatch.cancel(false);
			}
			this.holdWatchAtNanos = atNanos;
			this.holdWatch = timer.schedule(this::holdWatchDue, atNanos);
		}
	}

}
