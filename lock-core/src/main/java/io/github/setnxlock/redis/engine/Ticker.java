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

package io.github.setnxlock.redis.engine;

/**
 * Where a key's slot and its local hand-offs read the time: nanoseconds as
 * {@link System#nanoTime()} counts them. A test gives a clock it moves itself, with a
 * {@link Slot.Timer} that runs what comes due as it moves, so that claim deadlines, the
 * watch on a holder's lease and the time bound of local hand-offs are checked without
 * waiting for real time to pass. (The renewer and the acquisition's waits still read
 * {@link System#nanoTime()} themselves.)
 *
 * @author setnx-lock authors
 */
@FunctionalInterface
interface Ticker {

	/** The machine's monotonic clock. */
	Ticker SYSTEM = System::nanoTime;

	/**
	 * Read the clock.
	 * @return nanoseconds from an arbitrary origin, as {@link System#nanoTime()}
	 */
	long read();

}
