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
import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * A {@link LockRegistry} whose locks live in this JVM only, for unit tests of code that
 * takes locks: no Redis, and the same engine as the Redis registry, so its locks behave
 * as the Redis registry's do as far as that can be seen without Redis.
 * <p>
 * <b>What it does.</b> The Redis registry's engine runs on a lock space in memory in
 * place of Redis: the waits, reentrancy, leases, the watchdog, local hand-offs,
 * asynchronous acquisitions, fencing tokens and the loss of a hold whose lease ended are
 * the engine's, described in {@link LeasedLock} and {@link LockRegistry}. Locks are
 * reentrant per thread and per registry. A hold taken without a lease of its own
 * ({@link LeasedLock#lock()}, {@link LeasedLock#tryLock(Duration)}, ...) is renewed by
 * the watchdog while its holder lives (leases of 30 seconds); unlike with Redis, if its
 * thread dies without unlocking it, the hold ends with a warning in the log within a
 * tenth of a second, or at once when someone asks for the key, instead of with its lease.
 * Fencing tokens increase across the whole lock space.
 * <p>
 * <b>Sharing.</b> Two registries on one lock space contend as two applications on one
 * Redis do: create the second with {@link #sharing(InMemoryLockRegistry)}. A thread that
 * holds a key through one of them waits for it through the other.
 * <p>
 * <b>Threads.</b> The lock space runs its commands on a daemon thread of its own, and the
 * engine has the daemon threads of the Redis registry's (renewal, events, callbacks); all
 * of them end when idle, so a registry needs no closing. {@link #close()} ends the
 * engine's at once; the lock space's ends 10 seconds after its last command.
 * <p>
 * <b>What it does not do.</b> It knows nothing of other JVMs, has no key prefix, calls no
 * {@link io.github.setnxlock.LockListener listeners} and makes no metrics. It is meant
 * for tests, not for production.
 *
 * @author setnx-lock authors
 */
public final class InMemoryLockRegistry implements LockRegistry, AutoCloseable {

	/** The watchdog's lease, the Redis registry's default. */
	private static final Duration LEASE = Duration.ofSeconds(30);

	/** The Redis registry's default local hand-offs: at most 2 in a row, within 5 ms. */
	private static final LockEngine.Settings SETTINGS = new LockEngine.Settings(LEASE, true, null, "", null, "memory",
			true, 2, Duration.ofMillis(5), null);

	private final LockSpace space;

	private final LockEngine engine;

	/**
	 * Create a registry with a lock space of its own: its locks contend with nobody
	 * else's.
	 */
	public InMemoryLockRegistry() {
		this(new LockSpace());
	}

	private InMemoryLockRegistry(LockSpace space) {
		this.space = space;
		this.engine = new LockEngine(new MemoryLockCommands(space), space::subscribe, SETTINGS, List.of());
		space.join(this.engine);
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
		if (name == null) {
			throw new IllegalArgumentException("Lock name must not be null; use an empty name for none");
		}
		return this.engine.obtain(LockKey.of("", LockKey.checkKey(key)), name);
	}

	LockSpace space() {
		return this.space;
	}

	/**
	 * Return how many keys this registry keeps state for (held or waited for, or lost and
	 * not yet unlocked): what a test checks to see that nothing was left behind.
	 * @return the number of keys
	 */
	int localKeyCount() {
		return this.engine.stats().localKeys();
	}

	/**
	 * Refuse acquisitions from now on and end the registry's threads. Held locks are not
	 * released: they end with their leases, as with Redis.
	 */
	@Override
	public void close() {
		this.space.leave(this.engine);
		this.engine.close();
	}

	@Override
	public String toString() {
		return "InMemoryLockRegistry[localKeys=" + localKeyCount() + "]";
	}

}
