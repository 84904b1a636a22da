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

/**
 * The unit of the Unix timestamps stored by the {@link LockProtocol#TIMESTAMP timestamp}
 * protocol. It must match the unit used by the other clients of the same keys.
 *
 * @author setnx-lock authors
 */
public enum TimestampUnit {

	/**
	 * Whole seconds, as in the {@code SETNX} documentation. Leases are rounded up to
	 * whole seconds.
	 */
	SECONDS(1000),

	/**
	 * Milliseconds.
	 */
	MILLISECONDS(1);

	private final long millis;

	TimestampUnit(long millis) {
		this.millis = millis;
	}

	/**
	 * Return how many milliseconds one unit spans.
	 * @return 1000 for seconds, 1 for milliseconds
	 */
	public long toMillis() {
		return this.millis;
	}

}
