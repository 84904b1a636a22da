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
package io.github.setnxlock.shedlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockRegistry;

/**
 * ShedLock's {@link net.javacrumbs.shedlock.core.LockProvider} over a setnx-lock
 * {@link LockRegistry}, so that {@code @SchedulerLock} jobs and ShedLock's
 * {@code LockingTaskExecutor} lock through setnx-lock: its keys, its protocol, its meters
 * and its {@code locks} endpoint.
 * <p>
 * A ShedLock lock named {@code N} is the registry's lock on key {@code shedlock:N} (the
 * part before the name can be chosen), so under the registry's default prefix the Redis
 * key is {@code lock:shedlock:N}; its logical name, which meters and events carry, is
 * {@code N}. ShedLock's contract holds:
 * <ul>
 * <li>a held name gives {@link Optional#empty()}, to every caller, the holder's own
 * thread and provider included: the holds are asynchronous ones
 * ({@link io.github.setnxlock.LeasedLock#acquireAsync(Duration, Duration)}), which are
 * not reentrant, and {@code lock} makes a single attempt;</li>
 * <li>{@code lockAtMostFor} (counted from the configuration's creation, as ShedLock does)
 * is the hold's lease and a hard end: the registry never renews it;</li>
 * <li>{@link SimpleLock#unlock()} keeps the key until {@code lockAtLeastFor} has passed
 * ({@link LockHandle#releaseKeepingFor}), waking waiters when it ends; an unlock that
 * finds the lock lost or Redis unreachable is logged by the registry and does not throw,
 * since ShedLock calls it after the task and an exception would hide the task's
 * outcome;</li>
 * <li>{@link SimpleLock#extend} gives the hold a new lease while it is held and
 * {@link Optional#empty()} once it is lost, without touching a new holder's key; the lock
 * it was called on is spent either way, as ShedLock requires.</li>
 * </ul>
 * Leases are kept within what the registry accepts: a {@code lockAtMostFor} that has
 * already run out is held for a millisecond, and one of more than a year for a year.
 *
 * @author setnx-lock authors
 */
public class SetnxLockProvider implements ExtensibleLockProvider {

	/** The part before the ShedLock name in the registry's key, by default. */
	public static final String DEFAULT_KEY_PART = "shedlock:";

	private static final Duration SHORTEST_LEASE = Duration.ofMillis(1);

	private static final Duration LONGEST_LEASE = Duration.ofDays(365);

	private final LockRegistry registry;

	private final String keyPart;

	/**
	 * Create a provider whose locks live under {@link #DEFAULT_KEY_PART}.
	 * @param registry the registry
	 */
	public SetnxLockProvider(LockRegistry registry) {
		this(registry, DEFAULT_KEY_PART);
	}

	/**
	 * Create a provider.
	 * @param registry the registry
	 * @param keyPart what goes before a ShedLock name in the registry's key; may be empty
	 */
	public SetnxLockProvider(LockRegistry registry, String keyPart) {
		if (registry == null) {
			throw new IllegalArgumentException("registry must not be null");
		}
		if (keyPart == null) {
			throw new IllegalArgumentException("keyPart must not be null; use \"\" for none");
		}
		this.registry = registry;
		this.keyPart = keyPart;
	}

	/**
	 * Try once to take the lock a configuration names.
	 * @param configuration the name and times
	 * @return the lock, or empty when someone holds it
	 * @throws io.github.setnxlock.LockAccessException if Redis cannot be used
	 */
	@Override
	public Optional<SimpleLock> lock(LockConfiguration configuration) {
		String name = configuration.getName();
		Duration lease = leaseUntil(configuration);
		Optional<LockHandle> handle = await(
				this.registry.obtain(this.keyPart + name, name).acquireAsync(Duration.ZERO, lease));
		return handle.map((held) -> new HeldJob(held, configuration));
	}

	static Duration leaseUntil(LockConfiguration configuration) {
		return clamped(Duration.between(ClockProvider.now(), configuration.getLockAtMostUntil()));
	}

	/**
	 * Return a time within what the registry accepts: at least a millisecond, at most a
	 * year.
	 */
	static Duration clamped(Duration time) {
		if (time.compareTo(SHORTEST_LEASE) < 0) {
			return SHORTEST_LEASE;
		}
		return LeaseLimits.check("lockAtMostFor", (time.compareTo(LONGEST_LEASE) > 0) ? LONGEST_LEASE : time);
	}

	static <T> T await(CompletableFuture<T> answer) {
		try {
			return answer.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			throw ex;
		}
	}

}
