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

package io.github.setnxlock.autoconfigure;

/**
 * Settings of the actuator 'locks' endpoint.
 *
 * @author setnx-lock authors
 */
public class EndpointProperties {

	/**
	 * How many locks at most the 'locks' endpoint lists from Redis (held by any
	 * instance), found by SCAN over the key prefix; each costs a read.
	 */
	private int scanLimit = 100;

	/**
	 * Return the value of {@code setnx.lock.endpoint.scan-limit}.
	 * @return the value
	 */
	public int getScanLimit() {
		return this.scanLimit;
	}

	/**
	 * Set the value of {@code setnx.lock.endpoint.scan-limit}.
	 * @param scanLimit the value
	 */
	public void setScanLimit(int scanLimit) {
		this.scanLimit = scanLimit;
	}

}
