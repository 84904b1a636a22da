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

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

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
 * {@code LockRegistryLeaderInitiator}'s heartbeat is a local re-entry);
 * {@code lock(Duration)} and {@code tryLock(Duration, Duration)} hold for the given time
 * to live, never renewed.
 * <p>
 * The locks answer as {@code RedisLockRegistry}'s do, with setnx-lock's exception as the
 * cause: {@code unlock()} by a thread that does not hold the lock throws
 * {@link IllegalStateException}; {@code unlock()} of a hold that was lost (its lease
 * ended, or another client took the key) throws
 * {@link java.util.ConcurrentModificationException} and releases the hold all the same; a
 * Redis failure while locking throws
 * {@link org.springframework.dao.CannotAcquireLockException}. An acquisition by a thread
 * whose hold was lost goes to Redis again, as {@code RedisLockRegistry}'s does: it takes
 * the key if it is free and answers {@code false} (or waits) while another holds it. The
 * lost hold is not forgotten for that: it is set aside, and the unlock owed for it throws
 * {@code ConcurrentModificationException}, so a section that was not protected is always
 * told (where {@code RedisLockRegistry} takes the key again as if the hold had never
 * ended). A leader initiator whose heartbeat finds the hold lost therefore gives the
 * leadership up and takes it again once the key is free.
 * <p>
 * {@link #renewLock(Object, Duration)} gives the current thread's hold of a time to live
 * of its own a new one from now; {@link #renewLock(Object)} checks that the current
 * thread still holds the lock (holds taken without a time to live are renewed by the
 * registry already; one with a time to live keeps its deadline). Both throw
 * {@link IllegalStateException} for a hold the thread does not have or lost, and for a
 * hold the registry renews, which cannot be given another time to live.
 * <p>
 * {@link #obtain(Object)} returns the same handle for a key as long as the application
 * references one, so handles compare as Spring Integration's do ({@code isSameAs},
 * {@code equals}); they are equal only to themselves. The registry keeps them through
 * weak references, so a key nobody references any more leaves nothing behind once the
 * garbage collector has run: unlike {@code RedisLockRegistry}'s cache of 100,000 handles
 * there is no capacity to reach, no handle evicted while in use, and no
 * {@code CannotAcquireLockException} from {@code obtain}. A handle let go while its lock
 * is held is replaced by a new one that releases the same hold, because holds belong to
 * threads, not handles. {@link #expireUnusedOlderThan(long)} only drops the entries of
 * handles already collected: setnx-lock itself keeps no state for keys that nobody holds
 * or waits for.
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

	private final ConcurrentMap<String, Handle> handles = new ConcurrentHashMap<>();

	private final ReferenceQueue<IntegrationLock> collected = new ReferenceQueue<>();

	private final LostHolds lostHolds = new LostHolds();

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

	/**
	 * Return the lock of a key: the handle the application already references for it, or
	 * a new one.
	 * @param lockKey the lock's key, used through its {@code toString()}
	 * @return the lock
	 */
	@Override
	public DistributedLock obtain(Object lockKey) {
		return handle(lockKey);
	}

	/**
	 * Check that the current thread still holds the lock, which the registry renews while
	 * held when it was taken without a time to live.
	 * @param lockKey the lock's key
	 * @throws IllegalStateException if the current thread does not hold the lock, or its
	 * hold was lost (caused by setnx-lock's exception)
	 */
	@Override
	public void renewLock(Object lockKey) {
		handle(lockKey).renew(null);
	}

	/**
	 * Give the current thread's hold of the lock, taken with a time to live of its own, a
	 * new one from now.
	 * @param lockKey the lock's key
	 * @param ttl the new time to live
	 * @throws IllegalStateException if the current thread does not hold the lock, its
	 * hold was lost (caused by setnx-lock's exception), or the registry renews the hold
	 * (taken without a time to live)
	 */
	@Override
	public void renewLock(Object lockKey, Duration ttl) {
		handle(lockKey).renew(ttl);
	}

	/**
	 * Drop the entries of handles the application no longer references; setnx-lock drops
	 * the state of a key as soon as nobody holds or waits for it.
	 * @param age ignored
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
		forgetCollected();
	}

	/** How many handles the registry knows of, for tests. */
	int handleCount() {
		forgetCollected();
		return this.handles.size();
	}

	private IntegrationLock handle(Object lockKey) {
		if (lockKey == null) {
			throw new IllegalArgumentException("lockKey must not be null");
		}
		forgetCollected();
		// The handle is held strongly here until returned: its reference alone could be
		// cleared between the map's answer and the caller's.
		IntegrationLock[] handle = new IntegrationLock[1];
		this.handles.compute(lockKey.toString(), (key, known) -> {
			handle[0] = (known != null) ? known.get() : null;
			if (handle[0] != null) {
				return known;
			}
			handle[0] = new IntegrationLock(this.registry.obtain(key, this.name), this.lostHolds);
			return new Handle(key, handle[0], this.collected);
		});
		return handle[0];
	}

	private void forgetCollected() {
		for (Reference<? extends IntegrationLock> cleared = this.collected
			.poll(); cleared != null; cleared = this.collected.poll()) {
			Handle handle = (Handle) cleared;
			// Only if not replaced already by a newer handle of the same key.
			this.handles.remove(handle.key, handle);
		}
	}

	/**
	 * A weak reference to the handle of a key, which knows its key once cleared.
	 */
	private static final class Handle extends WeakReference<IntegrationLock> {

		private final String key;

		Handle(String key, IntegrationLock lock, ReferenceQueue<IntegrationLock> queue) {
			super(lock, queue);
			this.key = key;
		}

	}

}
