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
package io.github.setnxlock.integration;

import java.time.Duration;

import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

import io.github.setnxlock.LeasedLock;

/**
 * Spring Integration's {@code LockRegistry} over a setnx-lock
 * {@link io.github.setnxlock.LockRegistry}, so that {@code LockRegistryLeaderInitiator},
 * aggregators, {@code LockRequestHandlerAdvice} and every component that takes a lock
 * registry lock through setnx-lock: the same Redis keys as the setnx-lock registry's
 * ({@code obtain(key)} locks {@code <key-prefix><key>}), so both see the same lock held.
 * <p>
 * A lock key is used through its {@code toString()}. The locks are setnx-lock's
 * thread-bound, reentrant locks, seen through Spring Integration's
 * {@link DistributedLock}: {@code lock()}, {@code tryLock(...)} and
 * {@code lockInterruptibly()} hold with the registry's lease, renewed while held (so
 * {@code LockRegistryLeaderInitiator}'s heartbeat is a local re-entry, and a lost hold
 * makes it throw, which ends the leadership); {@code lock(Duration)} and
 * {@code tryLock(Duration, Duration)} hold for the given time to live, never renewed.
 * <p>
 * {@link #renewLock(Object, Duration)} gives the current thread's hold of a time to live
 * of its own a new one from now; {@link #renewLock(Object)} checks that the current
 * thread still holds the lock (holds taken without a time to live are renewed by the
 * registry already; one with a time to live keeps its deadline). Holds renewed by the
 * registry cannot be given another lease. {@link #expireUnusedOlderThan(long)} has
 * nothing to do: setnx-lock keeps no state for keys that nobody holds or waits for.
 * <p>
 * Meters and events name these locks by the logical name given here ("integration" by
 * default), not by key: keys such as aggregator group ids are unbounded.
 *
 * @author setnx-lock authors
 */
public class SetnxIntegrationLockRegistry
		implements ExpirableLockRegistry<DistributedLock>, RenewableLockRegistry<DistributedLock> {

	/** The logical name of the locks, by default. */
	public static final String DEFAULT_NAME = "integration";

	private final io.github.setnxlock.LockRegistry registry;

	private final String name;

	/**
	 * Create a registry whose locks are named {@value #DEFAULT_NAME}.
	 * @param registry the setnx-lock registry
	 */
	public SetnxIntegrationLockRegistry(io.github.setnxlock.LockRegistry registry) {
		this(registry, DEFAULT_NAME);
	}

	/**
	 * Create a registry.
	 * @param registry the setnx-lock registry
	 * @param name the logical name of its locks, for meters and events
	 */
	public SetnxIntegrationLockRegistry(io.github.setnxlock.LockRegistry registry, String name) {
		if (registry == null) {
			throw new IllegalArgumentException("registry must not be null");
		}
		if (name == null) {
			throw new IllegalArgumentException("name must not be null");
		}
		this.registry = registry;
		this.name = name;
	}

	@Override
	public DistributedLock obtain(Object lockKey) {
		return new IntegrationLock(lockOf(lockKey));
	}

	/**
	 * Check that the current thread still holds the lock, which the registry renews while
	 * held when it was taken without a time to live.
	 * @param lockKey the lock's key
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws io.github.setnxlock.LockLostException if its hold was lost
	 */
	@Override
	public void renewLock(Object lockKey) {
		lockOf(lockKey).checkHeld();
	}

	/**
	 * Give the current thread's hold of the lock, taken with a time to live of its own, a
	 * new one from now.
	 * @param lockKey the lock's key
	 * @param ttl the new time to live
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 * @throws io.github.setnxlock.LockLostException if its hold was lost
	 * @throws IllegalStateException if the registry renews the hold (taken without a time
	 * to live)
	 */
	@Override
	public void renewLock(Object lockKey, Duration ttl) {
		lockOf(lockKey).extendLease(ttl);
	}

	/**
	 * Nothing to do: setnx-lock drops the state of a key as soon as nobody holds or waits
	 * for it.
	 * @param age ignored
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
	}

	private LeasedLock lockOf(Object lockKey) {
		if (lockKey == null) {
			throw new IllegalArgumentException("lockKey must not be null");
		}
		return this.registry.obtain(lockKey.toString(), this.name);
	}

}
