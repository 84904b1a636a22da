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

package io.github.setnxlock.observation;

import io.micrometer.observation.Observation;

/**
 * What an observation of a lock knows: the lock's key and logical name, the protocol and,
 * for a wait, how it ended.
 *
 * @author setnx-lock authors
 */
public class LockObservationContext extends Observation.Context {

	private final String key;

	private final String lockName;

	private final String protocol;

	private String result = "unknown";

	/**
	 * Create a context.
	 * @param key the lock's key, without the registry's prefix
	 * @param lockName the lock's logical name, empty when it has none
	 * @param protocol the registry's protocol, lower case
	 */
	public LockObservationContext(String key, String lockName, String protocol) {
		this.key = key;
		this.lockName = lockName;
		this.protocol = protocol;
	}

	/**
	 * Return the lock's key.
	 * @return the key, without the registry's prefix
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return the lock's logical name.
	 * @return the name, empty when the lock has none
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * Return the registry's protocol.
	 * @return the protocol, lower case
	 */
	public String getProtocol() {
		return this.protocol;
	}

	/**
	 * Return how the wait ended: {@code acquired}, {@code timeout}, {@code error},
	 * {@code interrupted}, or {@code released}/{@code lost} for a hold.
	 * @return the result
	 */
	public String getResult() {
		return this.result;
	}

	/**
	 * Set how the wait or hold ended.
	 * @param result one of the values {@link #getResult()} lists
	 */
	public void setResult(String result) {
		this.result = result;
	}

}
