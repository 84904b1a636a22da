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
package io.github.setnxlock.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.micrometer.observation.Observation;

import io.github.setnxlock.LockLostEvent;

/**
 * The JVM's state per lock key: a slot that settles contention between threads of this
 * JVM before any of them goes to Redis, and the threads' holds.
 * <p>
 * A state lives while some thread holds or waits for its key and is dropped when the last
 * one leaves, so one-off keys do not accumulate. Reference counts change only inside the
 * map's atomic {@code compute}, which makes "last one out removes it" and "newcomer finds
 * it" exclusive.
 *
 * @author setnx-lock authors
 */
final class KeyStates {

	private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();

	/**
	 * Return the state of a key, created if needed, counting the caller as a user.
	 * @param redisKey the lock key in Redis
	 * @return the state; pair with {@link #release}
	 */
	KeyState retain(String redisKey) {
		return this.states.compute(redisKey, (key, existing) -> {
			KeyState state = (existing != null) ? existing : new KeyState();
			state.references++;
			return state;
		});
	}

	/**
	 * Stop counting the caller as a user of a key's state.
	 * @param redisKey the lock key in Redis
	 * @param state the state {@link #retain} returned
	 */
	void release(String redisKey, KeyState state) {
		this.states.computeIfPresent(redisKey, (key, existing) -> {
			if (existing == state && --existing.references == 0) {
				return null;
			}
			return existing;
		});
	}

	/**
	 * Return the state of a key if some thread holds or waits for it.
	 * @param redisKey the lock key in Redis
	 * @return the state, or {@code null}
	 */
	KeyState find(String redisKey) {
		return this.states.get(redisKey);
	}

	int size() {
		return this.states.size();
	}

	/**
	 * Run an action for every key some thread holds or waits for.
	 * @param action the action
	 */
	void forEach(java.util.function.Consumer<KeyState> action) {
		this.states.values().forEach(action);
	}

	/**
	 * One key's state in this JVM.
	 * <p>
	 * At most one thread at a time owns the key's <em>slot</em>: it is acquiring the key
	 * in Redis or holds it. Other threads of this JVM wait for the slot rather than
	 * asking Redis. The slot is free again when its owner unlocks, fails to acquire, or
	 * loses its hold (its lease ends, or a renewal finds the key taken): a holder that
	 * never calls {@code unlock()} does not block this JVM for longer than its lease.
	 * <p>
	 * The slot owner, while someone else holds the key in Redis, waits for the key's
	 * release message: each message counts one <em>release generation</em> up, and a
	 * waiter that noted the generation before it asked Redis waits only while it stays
	 * the same, so a message that arrives between the answer and the wait is not missed.
	 * <p>
	 * Waiting uses {@link Condition}s, not {@code synchronized}, so virtual threads do
	 * not pin their carrier.
	 */
	static final class KeyState {

		/**
		 * What {@link #takeHandoff()} answers when the slot was not handed over after an
		 * announced release.
		 */
		static final long NO_HANDOFF = -1;

		private final ReentrantLock mutex = new ReentrantLock();

		private final Condition releaseAnnounced = this.mutex.newCondition();

		/** Guarded by {@link #mutex}. */
		private Thread slotOwner;

		/** Guarded by {@link #mutex}. */
		private long releaseGeneration;

		/** Threads in {@link #awaitRelease}; guarded by the mutex. */
		private int releaseWaiters;

		/** Guarded by {@link #mutex}. */
		private long handoffGeneration = NO_HANDOFF;

		/**
		 * The threads waiting for the slot, in order, each with the condition it waits
		 * on: a handoff wakes the one thread it concerns rather than every waiter of the
		 * key. Guarded by {@link #mutex}.
		 */
		private final LinkedHashMap<Thread, Condition> slotQueue = new LinkedHashMap<>();

		/**
		 * The holds of this key by thread: the slot owner's, and those of threads whose
		 * hold was lost and who have not yet unlocked.
		 */
		private final Map<Thread, Hold> holds = new ConcurrentHashMap<>();

		/** Guarded by the map's compute. */
		int references;

		/**
		 * Wait for the slot and take it. Waiting threads get the slot in the order they
		 * came, handed over directly, so a thread that releases and locks again at once
		 * cannot overtake the others.
		 * @param thread the thread that takes the slot
		 * @param startNanos when the wait began
		 * @param waitNanos {@link AcquireLoop#FOREVER}, {@code 0} for no wait, or a time
		 * @param interruptible whether an interrupt ends the wait; if not, it is kept for
		 * the caller to see afterwards
		 * @return {@code true} when the slot is taken, {@code false} when the wait ended
		 * @throws InterruptedException if interruptible and interrupted
		 */
		boolean claimSlot(Thread thread, long startNanos, long waitNanos, boolean interruptible)
				throws InterruptedException {
			boolean interrupted = false;
			this.mutex.lock();
			try {
				if (this.slotOwner == null && this.slotQueue.isEmpty()) {
					this.slotOwner = thread;
					return true;
				}
				Condition woken = this.mutex.newCondition();
				this.slotQueue.put(thread, woken);
				boolean taken = false;
				try {
					while (this.slotOwner != thread) {
						long pause = Long.MAX_VALUE;
						Hold ownerHold = (this.slotOwner != null) ? this.holds.get(this.slotOwner) : null;
						if (ownerHold != null) {
							long now = System.nanoTime();
							if (ownerHold.isLost(now)) {
								if (firstWaiter() == thread) {
									// The owner lost its hold and may never unlock: go on
									// without it.
									this.slotOwner = thread;
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
					this.slotQueue.remove(thread);
					if (!taken) {
						if (this.slotOwner == thread) {
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
					thread.interrupt();
				}
			}
		}

		/**
		 * Return, once, the release generation at which the previous slot owner released
		 * the key in Redis and handed the slot to the caller; the caller then waits for
		 * that release's message, which reaches the waiters of other JVMs at the same
		 * time, before it asks Redis, so that it does not win every handoff by being
		 * first.
		 * @return the generation, or {@link #NO_HANDOFF} when the slot was not handed
		 * over after an announced release
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
		 * @param thread the slot owner
		 * @param hold its new hold, or {@code null} when it did not acquire (the slot is
		 * freed)
		 */
		void acquired(Thread thread, Hold hold) {
			if (hold != null) {
				this.holds.put(thread, hold);
				// Waiters that came while the owner was still acquiring wait without a
				// bound: let them bound their wait by the new hold's deadline.
				holdChanged();
			}
			else {
				freeSlot(thread, NO_HANDOFF);
			}
		}

		/**
		 * Drop a thread's hold, freeing the slot if the thread still owns it.
		 * @param thread the thread whose hold ends
		 * @param generationBeforeRelease the release generation noted before the release
		 * was sent, so that its message counts even if it arrived already; or
		 * {@link #NO_HANDOFF} when the release was not announced
		 */
		void released(Thread thread, long generationBeforeRelease) {
			this.holds.remove(thread);
			freeSlot(thread, generationBeforeRelease);
		}

		/**
		 * Let the threads waiting for the slot look at its owner's hold again: it was
		 * taken, or lost.
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
		java.util.List<Hold> holds() {
			return java.util.List.copyOf(this.holds.values());
		}

		/**
		 * Return the given thread's hold.
		 * @param thread the thread
		 * @return its hold, or {@code null}
		 */
		Hold holdOf(Thread thread) {
			return this.holds.get(thread);
		}

		/**
		 * Return the number of release messages seen for this key so far.
		 * @return the release generation
		 */
		long releaseGeneration() {
			this.mutex.lock();
			try {
				return this.releaseGeneration;
			}
			finally {
				this.mutex.unlock();
			}
		}

		/**
		 * Count a release message (or the news that messages may have been missed) and
		 * wake the thread waiting for one.
		 */
		void releaseAnnounced() {
			this.mutex.lock();
			try {
				this.releaseGeneration++;
				this.releaseAnnounced.signalAll();
			}
			finally {
				this.mutex.unlock();
			}
		}

		/**
		 * Wait until a release message newer than the given generation arrives, or the
		 * time is up.
		 * @param seenGeneration the generation noted before Redis was last asked
		 * @param nanos the longest wait
		 * @param interruptible whether an interrupt ends the wait
		 * @return whether an interrupt arrived and was kept (not interruptible)
		 * @throws InterruptedException if interruptible and interrupted
		 */
		boolean awaitRelease(long seenGeneration, long nanos, boolean interruptible) throws InterruptedException {
			boolean interrupted = false;
			long end = System.nanoTime() + nanos;
			this.mutex.lock();
			this.releaseWaiters++;
			try {
				for (long left = nanos; left > 0
						&& this.releaseGeneration == seenGeneration; left = end - System.nanoTime()) {
					try {
						this.releaseAnnounced.awaitNanos(left);
					}
					catch (InterruptedException ex) {
						if (interruptible) {
							throw ex;
						}
						interrupted = true;
					}
				}
				return interrupted;
			}
			finally {
				this.releaseWaiters--;
				this.mutex.unlock();
			}
		}

		/**
		 * Return how many threads wait for a release message of this key: a test's
		 * handshake that a waiter is parked on Redis's answer, not still on its way
		 * there.
		 * @return the number of waiting threads
		 */
		int releaseWaiters() {
			this.mutex.lock();
			try {
				return this.releaseWaiters;
			}
			finally {
				this.mutex.unlock();
			}
		}

		private void freeSlot(Thread thread, long generationBeforeRelease) {
			this.mutex.lock();
			try {
				if (this.slotOwner == thread) {
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
		 * Return how many threads wait for the slot.
		 * @return the number of waiting threads
		 */
		int slotWaiters() {
			this.mutex.lock();
			try {
				return this.slotQueue.size();
			}
			finally {
				this.mutex.unlock();
			}
		}

		private Thread firstWaiter() {
			return this.slotQueue.isEmpty() ? null : this.slotQueue.keySet().iterator().next();
		}

		/**
		 * Wake the slot's new owner, if it is still waiting. Called with {@link #mutex}
		 * held.
		 */
		private void wakeOwner() {
			Condition owner = (this.slotOwner != null) ? this.slotQueue.get(this.slotOwner) : null;
			if (owner != null) {
				owner.signal();
			}
		}

		/**
		 * Wake the first waiter that is not the slot's owner: the only one that bounds
		 * its wait by the owner's hold and takes the slot from an owner whose hold is
		 * lost. The others wait their turn, each until its own time is up. Called with
		 * {@link #mutex} held.
		 */
		private void wakeFirstWaiter() {
			for (Map.Entry<Thread, Condition> waiter : this.slotQueue.entrySet()) {
				if (waiter.getKey() != this.slotOwner) {
					waiter.getValue().signal();
					return;
				}
			}
		}

	}

	/**
	 * One thread's hold of a key. Its lease is replaced by each renewal; the holder, the
	 * renewal thread and waiters of this JVM read it.
	 * <p>
	 * A hold ends once, one way or the other: its thread starts releasing it, or it is
	 * found lost. The two race (a renewal answer against an {@code unlock()}), so the end
	 * is one compare-and-set: whoever wins decides whether a loss is reported and the
	 * thread interrupted, and the other side stands back.
	 */
	static final class Hold {

		private static final int HELD = 0;

		private static final int RELEASING = 1;

		private static final LockLostEvent.Reason[] REASONS = LockLostEvent.Reason.values();

		final Thread thread;

		final LockKey key;

		final String name;

		final long acquiredNanos;

		/**
		 * Whether the registry renews this hold's lease (acquired without a lease of its
		 * own).
		 */
		final boolean renewed;

		private volatile Lease lease;

		/** {@link #HELD}, {@link #RELEASING}, or 2 + the ordinal of the loss reason. */
		private final AtomicInteger end = new AtomicInteger(HELD);

		/** Set once, by the first request to interrupt the thread on loss. */
		private final AtomicBoolean interruptOnLoss = new AtomicBoolean();

		/** Read and written only by the thread that holds. */
		int count = 1;

		/** Written by the renewal thread only. */
		private volatile int renewals;

		/** The observation of this hold, stopped when it ends. */
		Observation observation = Observation.NOOP;

		Hold(Thread thread, LockKey key, String name, Lease lease, boolean renewed) {
			this.thread = thread;
			this.key = key;
			this.name = name;
			this.lease = lease;
			this.renewed = renewed;
			this.acquiredNanos = lease.sentNanos();
		}

		Lease lease() {
			return this.lease;
		}

		/**
		 * Take a renewed lease, unless the hold has ended meanwhile or its deadline
		 * passed before the answer came: once lost, a hold stays lost.
		 * @param renewal the renewed lease
		 * @return whether it was taken
		 */
		boolean renewed(Lease renewal) {
			if (this.end.get() != HELD || this.lease.isExpired(System.nanoTime())) {
				return false;
			}
			this.lease = renewal;
			this.renewals++;
			return true;
		}

		/**
		 * Return how many times the lease was renewed.
		 * @return the number of renewals
		 */
		int renewals() {
			return this.renewals;
		}

		/**
		 * Whether the hold is lost at the given time: marked lost, or past its deadline.
		 * @param nowNanos {@link System#nanoTime()}
		 * @return whether it is lost
		 */
		boolean isLost(long nowNanos) {
			return this.end.get() > RELEASING || this.lease.isExpired(nowNanos);
		}

		/**
		 * Whether the hold has ended: released or lost.
		 * @return whether it has ended
		 */
		boolean hasEnded() {
			return this.end.get() != HELD;
		}

		/**
		 * Mark the hold lost, if it has not ended yet.
		 * @param reason how it was lost
		 * @return {@code true} for the first end, {@code false} if it was already
		 * releasing or lost
		 */
		boolean markLost(LockLostEvent.Reason reason) {
			return this.end.compareAndSet(HELD, RELEASING + 1 + reason.ordinal());
		}

		/**
		 * Start releasing the hold, if it has not ended yet.
		 * @return {@code true} if the release wins, {@code false} if the hold was lost
		 */
		boolean beginRelease() {
			return this.end.compareAndSet(HELD, RELEASING);
		}

		/**
		 * Return how the hold was lost, if it was marked.
		 * @return the reason, or {@code null}
		 */
		LockLostEvent.Reason lostReason() {
			int state = this.end.get();
			return (state > RELEASING) ? REASONS[state - RELEASING - 1] : null;
		}

		/**
		 * Ask for the thread to be interrupted on loss.
		 * @return {@code true} the first time it is asked
		 */
		boolean requestInterruptOnLoss() {
			return this.interruptOnLoss.compareAndSet(false, true);
		}

		boolean interruptOnLoss() {
			return this.interruptOnLoss.get();
		}

	}

}
