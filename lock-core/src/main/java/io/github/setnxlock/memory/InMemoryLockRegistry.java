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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;

/**
 * A {@link LockRegistry} whose locks live in this JVM only, for unit tests of code that
 * takes locks: no Redis, no threads of its own to close, and the same contract as the
 * Redis registry as far as it can be seen without Redis.
 * <p>
 * <b>What it does.</b> Locks are reentrant per thread and per registry; {@code tryLock}
 * with a wait waits, and returns {@code false} when the lock stays held for the whole
 * wait. A hold taken with a lease of its own
 * ({@link LeasedLock#tryLock(Duration, Duration)},
 * {@link LeasedLock#acquireAsync(Duration, Duration)}) ends when its lease ends: others
 * can take the lock from then on, and the holder finds out through
 * {@link LeasedLock#isHeldByCurrentThread()}, {@link LeasedLock#checkHeld()},
 * {@link LeasedLock#interruptOnLoss()} and a
 * {@link io.github.setnxlock.LockLostException} from {@code unlock()}. A hold taken
 * without one ({@link LeasedLock#lock()}, {@link LeasedLock#tryLock(Duration)}, ...) is
 * kept until it is unlocked, as a hold the Redis registry renews is kept while its holder
 * lives: if its thread dies without unlocking it, the hold ends (with a warning in the
 * log), and waiters get the key within a fraction of a second. Fencing tokens increase
 * per key; {@link LeasedLock#unlockKeepingFor(Duration)},
 * {@link LeasedLock#extendLease(Duration)} and {@link LeasedLock#acquireAsync(Duration)
 * asynchronous acquisitions} (which park no thread, and give up when their future is
 * cancelled) behave as they do with Redis.
 * <p>
 * <b>How.</b> The registry's keys live in a lock space: a map from key to holder behind
 * one monitor. Threads and asynchronous acquisitions wait for a key in one line, first
 * come first served; a free key is handed to the head of the line by the release, or by a
 * shared daemon timer at the lease's end or when the holder's thread is found dead.
 * Nobody takes a key ahead of those in line for it. Asynchronous acquisitions park no
 * thread and complete on shared daemon callback threads. Two registries on one space
 * contend as two applications on one Redis do: create the second with
 * {@link #sharing(InMemoryLockRegistry)}.
 * <p>
 * <b>What it does not do.</b> It knows nothing of other JVMs, has no key prefix, calls no
 * {@link io.github.setnxlock.LockListener listeners} and makes no metrics, and its locks
 * cannot be lost but by their lease or by the death of their thread. It is meant for
 * tests, not for production.
 *
 * @author setnx-lock authors
 */
public final class InMemoryLockRegistry implements LockRegistry {

	private final LockSpace space;

	/** The current holds of this registry's threads, by key and thread. */
	private final Map<ThreadHoldKey, MemoryHold> threadHolds = new ConcurrentHashMap<>();

	/**
	 * Create a registry with a lock space of its own: its locks contend with nobody
	 * else's.
	 */
	public InMemoryLockRegistry() {
		this(new LockSpace());
	}

	private InMemoryLockRegistry(LockSpace space) {
		this.space = space;
	}

	/**
	 * Create a registry on the same lock space as another: the two contend for each key
	 * as two applications on one Redis do. A thread that holds a key through one of them
	 * waits for it through the other, as reentrancy is per registry.
	 * @param other the registry whose locks the new one shares
	 * @return the new registry
	 * @throws IllegalArgumentException if {@code other} is {@code null}
	 */
	public static InMemoryLockRegistry sharing(InMemoryLockRegistry other) {
		if (other == null) {
			throw new IllegalArgumentException("The registry to share locks with must not be null");
		}
		return new InMemoryLockRegistry(other.space);
	}

	@Override
	public LeasedLock obtain(String key) {
		return obtain(key, "");
	}

	@Override
	public LeasedLock obtain(String key, String name) {
		if (key == null) {
			throw new IllegalArgumentException("Lock key must not be null");
		}
		if (key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be empty or blank, but was '" + key + "'");
		}
		if (name == null) {
			throw new IllegalArgumentException("Lock name must not be null; use an empty name for none");
		}
		return new InMemoryLeasedLock(this, key, name);
	}

	LockSpace space() {
		return this.space;
	}

	MemoryHold holdOf(String key, Thread thread) {
		return this.threadHolds.get(new ThreadHoldKey(key, thread));
	}

	void held(String key, Thread thread, MemoryHold hold) {
		forgetDeadThreads();
		this.threadHolds.put(new ThreadHoldKey(key, thread), hold);
	}

	/**
	 * Drop the holds of threads that died without unlocking: nobody is left to unlock
	 * them, and the lock space counts those without a lease as ended.
	 */
	private void forgetDeadThreads() {
		this.threadHolds.keySet().removeIf((holder) -> !holder.thread().isAlive());
	}

	void ended(String key, Thread thread) {
		this.threadHolds.remove(new ThreadHoldKey(key, thread));
	}

	/**
	 * Return how many keys this registry's threads hold (or have lost and not yet
	 * unlocked): what a test checks to see that nothing was left behind.
	 * @return the number of keys
	 */
	int localKeyCount() {
		forgetDeadThreads();
		return (int) this.threadHolds.keySet().stream().map(ThreadHoldKey::key).distinct().count();
	}

	@Override
	public String toString() {
		return "InMemoryLockRegistry[threadHolds=" + this.threadHolds.size() + "]";
	}

	private record ThreadHoldKey(String key, Thread thread) {
	}

}
