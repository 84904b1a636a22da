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
package io.github.setnxlock;

import java.time.Duration;

/**
 * The one rule for every lease, keep and hold limit the library takes: the settings'
 * lease time and hold limit, {@link LeasedLock#tryLock(Duration, Duration)},
 * {@link LeasedLock#unlockKeepingFor(Duration)}, the annotation's {@code leaseTime} and
 * {@code holdAtLeast}, and the properties that configure them.
 * <p>
 * A lease is at least 1 ms (Redis counts expiries in milliseconds) and at most
 * {@link #MAX}, far past any sane lease, so that durations can be added up in nanoseconds
 * and milliseconds without overflow. A wait is zero or positive; one longer than
 * {@link #UNLIMITED_WAIT} waits without a limit.
 *
 * @author setnx-lock authors
 */
public final class LeaseLimits {

	/** The longest lease: 365 days. */
	public static final Duration MAX = Duration.ofDays(365);

	/**
	 * Waits longer than this are taken as no limit, where nanosecond arithmetic on
	 * {@link System#nanoTime()} cannot overflow: about 73 years.
	 */
	public static final Duration UNLIMITED_WAIT = Duration.ofNanos(Long.MAX_VALUE / 4);

	/**
	 * A wait in nanoseconds that has no limit: what {@link #waitNanos(Duration)} answers
	 * for a wait longer than {@link #UNLIMITED_WAIT}, and what {@code lock()} waits. The
	 * one "no limit" of the library's waits.
	 */
	public static final long NO_LIMIT_NANOS = Long.MAX_VALUE;

	private LeaseLimits() {
	}

	/**
	 * Check a wait and return it in nanoseconds.
	 * @param wait the wait
	 * @return the wait in nanoseconds, or {@link #NO_LIMIT_NANOS} for a wait longer than
	 * {@link #UNLIMITED_WAIT}
	 * @throws IllegalArgumentException if it is {@code null} or negative
	 */
	public static long waitNanos(Duration wait) {
		if (wait == null) {
			throw new IllegalArgumentException("wait must not be null");
		}
		if (wait.isNegative()) {
			throw new IllegalArgumentException("wait must not be negative, but was " + wait);
		}
		return (wait.compareTo(UNLIMITED_WAIT) > 0) ? NO_LIMIT_NANOS : wait.toNanos();
	}

	/**
	 * Check a lease against the rule.
	 * @param name what the lease is, for the message ("leaseTime", "keep")
	 * @param lease the lease
	 * @return the lease
	 * @throws IllegalArgumentException naming it, if it is {@code null}, not positive,
	 * shorter than 1 ms or longer than {@link #MAX}
	 */
	public static Duration check(String name, Duration lease) {
		if (lease == null) {
			throw new IllegalArgumentException(name + " must not be null");
		}
		if (lease.isNegative() || lease.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, but was " + lease);
		}
		if (lease.compareTo(MAX) > 0) {
			throw new IllegalArgumentException(name + " must be at most " + MAX + ", but was " + lease);
		}
		if (lease.toMillis() == 0) {
			throw new IllegalArgumentException(name + " must be at least 1ms, but was " + lease);
		}
		return lease;
	}

}
