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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The keys that one or more {@link InMemoryLockRegistry registries} contend for, as the
 * applications on one Redis do: a map from key to its holder, behind one monitor for the
 * whole space. Threads wait on one condition, signalled at every release and woken by
 * their own deadline or the holder's lease end; asynchronous waiters queue per key and
 * are handed the key when it is released or its lease ends (a timer), so they park no
 * thread. Fencing tokens come from one counter for the space, so they increase per key.
 *
 * @author setnx-lock authors
 */
final class LockSpace {

	/** A wait without end. */
	static final long FOREVER = Long.MAX_VALUE;

	private final ReentrantLock monitor = new ReentrantLock();

	private final Condition released = this.monitor.newCondition();

	private final Map<String, KeyState> keys = new HashMap<>();

	private long lastFencingToken;

	/**
	 * Take a key for the current thread, waiting up to the given time.
	 * @return the hold, or {@code null} if the key stayed held for the whole wait
	 */
	MemoryHold acquire(String key, String name, Duration lease, long waitNanos, boolean interruptible)
			throws InterruptedException {
		long startNanos = System.nanoTime();
		boolean interrupted = false;
		this.monitor.lock();
		KeyState state = this.keys.computeIfAbsent(key, (k) -> new KeyState());
		state.threadWaiters++;
		try {
			while (true) {
				long now = System.nanoTime();
				if (state.isFree(now)) {
					return state.take(key, name, lease, now, this);
				}
				long left = (waitNanos == FOREVER) ? FOREVER : waitNanos - (now - startNanos);
				if (left <= 0) {
					return null;
				}
				try {
					this.released.awaitNanos(Math.min(left, state.holder.nanosLeft(now)));
				}
				catch (InterruptedException ex) {
					if (interruptible) {
						throw ex;
					}
					// Kept for the caller, after the wait: waiting again with the flag
					// set would spin.
					interrupted = true;
				}
			}
		}
		finally {
			state.threadWaiters--;
			dropIfUnused(key, state);
			this.monitor.unlock();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Take a key without a thread waiting for it.
	 * @return the hold, or {@code null} if the key stayed held for the whole wait;
	 * cancelling it gives the acquisition up
	 */
	CompletableFuture<MemoryHold> acquireAsync(String key, String name, Duration lease, long waitNanos) {
		AsyncWaiter waiter = new AsyncWaiter(key, name, lease);
		this.monitor.lock();
		try {
			KeyState state = this.keys.computeIfAbsent(key, (k) -> new KeyState());
			long now = System.nanoTime();
			if (state.isFree(now)) {
				return CompletableFuture.completedFuture(state.take(key, name, lease, now, this));
			}
			if (waitNanos == 0) {
				dropIfUnused(key, state);
				return CompletableFuture.completedFuture(null);
			}
			state.asyncWaiters.add(waiter);
			if (waitNanos != FOREVER) {
				waiter.deadline = Timers.schedule(() -> giveUp(waiter), waitNanos);
			}
		}
		finally {
			this.monitor.unlock();
		}
		waiter.granted.whenComplete((hold, failure) -> {
			if (waiter.granted.isCancelled()) {
				giveUp(waiter);
			}
		});
		return waiter.granted;
	}

	/**
	 * Take a waiter out of line, if it is still in it, and tell it it has no hold: its
	 * wait ended, or its caller gave up.
	 */
	private void giveUp(AsyncWaiter waiter) {
		boolean inLine;
		this.monitor.lock();
		try {
			KeyState state = this.keys.get(waiter.key);
			inLine = state != null && state.asyncWaiters.remove(waiter);
			if (inLine) {
				dropIfUnused(waiter.key, state);
			}
			if (waiter.deadline != null) {
				waiter.deadline.cancel(false);
			}
		}
		finally {
			this.monitor.unlock();
		}
		if (inLine) {
			// Handed no hold: one handed meanwhile completes the waiter itself.
			Timers.callback(() -> waiter.granted.complete(null));
		}
	}

	/**
	 * End a hold: free its key, or keep the key for the given time.
	 * @return whether the hold was still held (not expired)
	 */
	boolean release(MemoryHold hold, Duration keep) {
		List<Runnable> grants = new ArrayList<>();
		boolean held;
		this.monitor.lock();
		try {
			long now = System.nanoTime();
			held = hold.isHeld(now);
			hold.end();
			KeyState state = this.keys.get(hold.key);
			if (state != null && state.holder == hold) {
				state.holder = null;
				if (held && keep != null) {
					MemoryHold kept = new MemoryHold(hold.key, hold.name, keep, now);
					state.holder = kept;
					scheduleLeaseEnd(kept, now);
				}
				state.handOff(now, grants, this);
				this.released.signalAll();
				dropIfUnused(hold.key, state);
			}
		}
		finally {
			this.monitor.unlock();
		}
		grants.forEach(Timers::callback);
		return held;
	}

	/**
	 * Give a hold with a lease of its own a new lease from now.
	 * @return whether it was still held and got the lease
	 */
	boolean extend(MemoryHold hold, Duration lease) {
		return underMonitor(() -> {
			long now = System.nanoTime();
			if (!hold.isHeld(now)) {
				return false;
			}
			hold.newLease(lease, now);
			scheduleLeaseEnd(hold, now);
			return true;
		});
	}

	/**
	 * Return a hold's fencing token, drawn on the first request.
	 * @return the token, or 0 if the hold is no longer held
	 */
	long fencingToken(MemoryHold hold) {
		return underMonitor(() -> {
			if (!hold.isHeld(System.nanoTime())) {
				return 0L;
			}
			if (hold.fencingToken == 0) {
				hold.fencingToken = ++this.lastFencingToken;
			}
			return hold.fencingToken;
		});
	}

	/**
	 * Run an action once the hold's lease ends, unless it is released first; at once if
	 * it has ended already.
	 */
	void onLoss(MemoryHold hold, Runnable action) {
		this.monitor.lock();
		try {
			if (hold.isHeld(System.nanoTime())) {
				hold.onLoss = action;
				return;
			}
		}
		finally {
			this.monitor.unlock();
		}
		action.run();
	}

	boolean isLocked(String key) {
		return underMonitor(() -> {
			KeyState state = this.keys.get(key);
			return state != null && !state.isFree(System.nanoTime());
		});
	}

	/**
	 * Return how many threads and asynchronous acquisitions wait for a key.
	 */
	int waiters(String key) {
		return underMonitor(() -> {
			KeyState state = this.keys.get(key);
			return (state != null) ? state.threadWaiters + state.asyncWaiters.size() : 0;
		});
	}

	/**
	 * Return how many keys the space keeps state for: held, kept or waited for.
	 */
	int keyCount() {
		return underMonitor(this.keys::size);
	}

	/**
	 * Return how many keys the space keeps state for although nobody holds or waits for
	 * them: none, unless state leaks.
	 */
	int idleKeyCount() {
		long now = System.nanoTime();
		return underMonitor(() -> (int) this.keys.values().stream().filter((state) -> state.isIdle(now)).count());
	}

	private <T> T underMonitor(Supplier<T> action) {
		this.monitor.lock();
		try {
			return action.get();
		}
		finally {
			this.monitor.unlock();
		}
	}

	void scheduleLeaseEnd(MemoryHold hold, long now) {
		if (hold.leaseTimer != null) {
			hold.leaseTimer.cancel(false);
		}
		hold.leaseTimer = Timers.schedule(() -> leaseEnded(hold), hold.nanosLeft(now));
	}

	/**
	 * The timer's task at a lease's end: report the loss to the holder, and hand the key
	 * to the next asynchronous waiter. Threads that wait woke by themselves.
	 */
	private void leaseEnded(MemoryHold hold) {
		List<Runnable> grants = new ArrayList<>();
		Runnable onLoss = null;
		this.monitor.lock();
		try {
			long now = System.nanoTime();
			if (hold.hasEnded() || !hold.isExpired(now)) {
				// Released, or given a new lease, since this task was scheduled.
				return;
			}
			onLoss = hold.onLoss;
			hold.onLoss = null;
			KeyState state = this.keys.get(hold.key);
			if (state != null && state.holder == hold) {
				state.handOff(now, grants, this);
				dropIfUnused(hold.key, state);
			}
		}
		finally {
			this.monitor.unlock();
		}
		if (onLoss != null) {
			onLoss.run();
		}
		grants.forEach(Timers::callback);
	}

	private void dropIfUnused(String key, KeyState state) {
		if (state.isIdle(System.nanoTime()) && this.keys.get(key) == state) {
			this.keys.remove(key);
		}
	}

}
