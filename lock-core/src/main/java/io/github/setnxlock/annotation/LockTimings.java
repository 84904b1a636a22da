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

package io.github.setnxlock.annotation;

import java.time.Duration;

/**
 * Decides the wait and the lease of a {@link DistributedLock} call from the lock's name
 * and what its annotation says. The Spring Boot starter implements it from
 * {@code setnx.lock.wait-time} and the per-lock {@code setnx.lock.locks.<name>.*}
 * settings.
 *
 * @author setnx-lock authors
 */
public interface LockTimings {

	/**
	 * Return how long a call waits for the lock.
	 * @param name the lock's logical name
	 * @param annotated the annotation's {@link DistributedLock#waitTime()}, or
	 * {@code null} when it names none
	 * @return the wait; zero or positive
	 */
	Duration waitTime(String name, Duration annotated);

	/**
	 * Return the lease of a call's hold.
	 * @param name the lock's logical name
	 * @param annotated the annotation's {@link DistributedLock#leaseTime()}, or
	 * {@code null} when it names none
	 * @return the lease, or {@code null} for the registry's own lease
	 */
	Duration leaseTime(String name, Duration annotated);

	/**
	 * Return timings that take what the annotation says and fall back to the given wait
	 * and the registry's lease.
	 * @param defaultWait the wait of annotations that name none
	 * @return the timings
	 */
	static LockTimings withDefaultWait(Duration defaultWait) {
		if (defaultWait == null || defaultWait.isNegative()) {
			throw new IllegalArgumentException("defaultWait must be zero or positive, but was " + defaultWait);
		}
		return new LockTimings() {

			@Override
			public Duration waitTime(String name, Duration annotated) {
				return (annotated != null) ? annotated : defaultWait;
			}

			@Override
			public Duration leaseTime(String name, Duration annotated) {
				return annotated;
			}

		};
	}

}
