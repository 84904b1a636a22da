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

import java.time.Duration;
import java.util.Objects;

/**
 * How a registry passes a released lock to a thread of its own that waits for it, without
 * a round trip to Redis (local hand-off, or lock cohorting).
 * <p>
 * The Redis key keeps its owner token and lease; the next holder starts with the released
 * holder's lease and deadline, which its own renewal extends as for any hold, and draws
 * its own fencing token when asked. Only holds with the registry's renewed lease pass on,
 * to threads that ask for that lease. So that other processes are not starved, a hand-off
 * reads the key for the mark a waiter of another process leaves on it (token protocol),
 * without waiting for the answer, whenever no read is out: until a read comes back
 * without a mark, at most {@code maxHandoffs} hand-offs follow the last read sent, and
 * once a mark is known, at most {@code maxHandoffs} more hand-offs or {@code maxTime}
 * pass before a release goes back through Redis, where that waiter is woken and goes
 * first. The timestamp protocol never hands over locally: clients of the documented
 * pattern leave no mark.
 *
 * @param enabled whether releases hand over locally
 * @param maxHandoffs how many hand-offs at most before a read of the key says nobody
 * elsewhere waits, and once another process's waiter is known; at least 1
 * @param maxTime how long hand-offs go on at most once another process's waiter is known;
 * positive
 * @author setnx-lock authors
 */
public record LocalHandoffSettings(boolean enabled, int maxHandoffs, Duration maxTime) {

	/**
	 * On, with at most 2 hand-offs or 5 ms before a read rules out, or once it finds, a
	 * waiter elsewhere.
	 */
	public static final LocalHandoffSettings DEFAULTS = new LocalHandoffSettings(true, 2, Duration.ofMillis(5));

	/** Off: every release goes through Redis. */
	public static final LocalHandoffSettings OFF = new LocalHandoffSettings(false, 4, Duration.ofMillis(5));

	/**
	 * Create settings, checking them.
	 * @param enabled whether releases hand over locally
	 * @param maxHandoffs how many hand-offs at most; at least 1
	 * @param maxTime how long hand-offs go on at most once another process's waiter is
	 * known; positive
	 * @throws IllegalArgumentException if {@code maxHandoffs} or {@code maxTime} is out
	 * of range
	 */
	public LocalHandoffSettings {
		if (maxHandoffs < 1) {
			throw new IllegalArgumentException("maxHandoffs must be at least 1, was " + maxHandoffs);
		}
		Objects.requireNonNull(maxTime, "maxTime must not be null");
		if (maxTime.isNegative() || maxTime.isZero()) {
			throw new IllegalArgumentException("maxTime must be positive, was " + maxTime);
		}
	}

}
