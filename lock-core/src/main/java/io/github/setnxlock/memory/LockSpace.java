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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The keys that one or more {@link InMemoryLockRegistry registries} contend for, as the
 * applications on one Redis do: a map from key to its holder and its line of waiters,
 * behind one monitor for the whole space. Threads and asynchronous acquisitions wait in
 * one line per key, first come first served, and a free key is handed to the head of the
 * line explicitly: at a release, at a lease's end (a timer), when the holder's thread is
 * found dead, and before anyone looks at the key. A thread in line parks on a condition
 * of its own until it is handed the key or its wait ends; an asynchronous acquisition
 * parks no thread. Fencing tokens come from one counter for the space, so they increase
 * per key.
 *
 * @author setnx-lock authors
 */
final class LockSpace {

	/**
	 * How often a holder without a lease is looked at while others wait: its thread dying
	 * ends the hold, as renewals stop in Redis.
	 */
	private static final long OWNER_WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final ReentrantLock monitor = new ReentrantLock();

	private final Map<String, KeyState> keys = new HashMap<>();

	private long lastFencingToken;

	/**
	 * Take a key for the current thread, waiting up to the given time in line.
	 * @return the hold, or {@code null} if the key stayed held for the whole wait
	 */
	MemoryHold acquire(String key, String name, Duration lease, long waitNanos, boolean interruptible)
			throws InterruptedException {
		long startNanos = System.nanoTime();
		List<Runnable> callbacks = new ArrayList<>();
		ThreadWaiter waiter = null;
		this.monitor.lock();
		try {
			KeyState state = settled(key, startNanos, callbacks);
			if (state.isFree(startNanos)) {
				return state.take(key, name, lease, Thread.currentThread(), startNanos, this);
			}
			if (waitNanos == 0) {
				return null;
			}
			waiter = new ThreadWaiter(key, name, lease, this.monitor.newCondition());
			state.line.add(waiter);
			watchOwner(state);
			return waiter.awaitTurn(state, startNanos, waitNanos, interruptible, callbacks, this);
		}
		finally {
			dropIfUnused(key);
			this.monitor.unlock();
			callbacks.forEach(Timers::callback);
			if (waiter != null && waiter.interrupted) {
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
		return new AsyncWaiter(key, name, lease).enter(this, waitNanos);
	}

	/**
	 * End a hold: free its key for the first in line, or keep the key for the given time.
	 * @return whether the hold was still held (not expired)
	 */
	boolean release(MemoryHold hold, Duration keep) {
		return withCallbacks((callbacks) -> {
			long now = System.nanoTime();
			boolean held = hold.isHeld(now);
			hold.end();
			KeyState state = this.keys.get(hold.key);
			if (state != null && state.holder == hold) {
				state.holder = null;
				if (held && keep != null) {
					state.take(hold.key, hold.name, keep, null, now, this);
				}
				state.settle(now, callbacks, this);
				dropIfUnused(hold.key);
			}
			return held;
		});
	}

	/**
	 * Give a hold with a lease of its own a new lease from now. A shorter one moves its
	 * end, and so the hand-over to the line, forward.
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
	 * Run an action once the hold is found lost, unless the entry that asked ends first
	 * (or the hold); at once if it is lost already. The first request is kept.
	 */
	void onLoss(MemoryHold hold, Runnable action, int entry) {
		boolean lost = underMonitor(() -> {
			if (!hold.isHeld(System.nanoTime())) {
				return true;
			}
			if (hold.onLoss == null) {
				hold.onLoss = action;
				hold.onLossEntry = entry;
			}
			return false;
		});
		if (lost) {
			action.run();
		}
	}

	/**
	 * An entry of a reentrant hold ends: what it asked for at a loss goes with it.
	 */
	void entryEnded(MemoryHold hold, int entry) {
		underMonitor(() -> {
			if (hold.onLoss != null && hold.onLossEntry == entry) {
				hold.onLoss = null;
			}
			return null;
		});
	}

	boolean isLocked(String key) {
		return withCallbacks((callbacks) -> {
			KeyState state = this.keys.get(key);
			if (state == null) {
				return false;
			}
			long now = System.nanoTime();
			state.settle(now, callbacks, this);
			boolean locked = !state.isFree(now);
			dropIfUnused(key);
			return locked;
		});
	}

	/**
	 * Return the state of a key, {@code null} if the space keeps none; the caller holds
	 * the monitor.
	 */
	KeyState stateOf(String key) {
		return this.keys.get(key);
	}

	/**
	 * Return how many threads and asynchronous acquisitions are in line for a key.
	 */
	int waiters(String key) {
		return underMonitor(() -> {
			KeyState state = this.keys.get(key);
			return (state != null) ? state.line.size() : 0;
		});
	}

	/**
	 * Return how many threads and asynchronous acquisitions are in line for any key.
	 */
	int waiterCount() {
		return underMonitor(() -> this.keys.values().stream().mapToInt((state) -> state.line.size()).sum());
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

	/**
	 * Run an action under the monitor, and what it leaves in {@code callbacks} after it,
	 * on callback threads.
	 */
	<T> T withCallbacks(Function<List<Runnable>, T> action) {
		List<Runnable> callbacks = new ArrayList<>();
		this.monitor.lock();
		try {
			return action.apply(callbacks);
		}
		finally {
			this.monitor.unlock();
			callbacks.forEach(Timers::callback);
		}
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

	/**
	 * Return the state of a key, made if there is none, settled.
	 */
	KeyState settled(String key, long nowNanos, List<Runnable> callbacks) {
		KeyState state = this.keys.computeIfAbsent(key, (k) -> new KeyState());
		state.settle(nowNanos, callbacks, this);
		return state;
	}

	void scheduleLeaseEnd(MemoryHold hold, long now) {
		if (hold.leaseTimer != null) {
			hold.leaseTimer.cancel(false);
		}
		hold.leaseTimer = Timers.schedule(() -> settleHeldBy(hold), hold.nanosLeft(now));
	}

	/**
	 * Have the timer look at a holder without a lease of its own while others wait for
	 * its key, until its thread dies or it ends.
	 */
	void watchOwner(KeyState state) {
		MemoryHold holder = state.holder;
		if (holder != null && holder.ownerWatch == null && holder.needsOwnerWatch() && !state.line.isEmpty()) {
			holder.ownerWatch = Timers.schedule(() -> settleHeldBy(holder), OWNER_WATCH_NANOS);
		}
	}

	/**
	 * The timer's task at a lease's end, or at a look at a holder's thread: settle the
	 * key if the hold still has it, which tells the holder of a loss and hands the key to
	 * the first in line.
	 */
	private void settleHeldBy(MemoryHold hold) {
		withCallbacks((callbacks) -> {
			KeyState state = this.keys.get(hold.key);
			hold.ownerWatch = null;
			if (state != null && state.holder == hold && !hold.hasEnded()) {
				state.settle(System.nanoTime(), callbacks, this);
				dropIfUnused(hold.key);
			}
			return null;
		});
	}

	void dropIfUnused(String key) {
		KeyState state = this.keys.get(key);
		if (state != null && state.isIdle(System.nanoTime())) {
			this.keys.remove(key);
		}
	}

}
