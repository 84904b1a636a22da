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

import java.time.Duration;

/**
 * Settings of one lock.
 *
 * @author setnx-lock authors
 */
public class LockProperties {

	/**
	 * How long calls wait for this lock; overrides the annotation's waitTime.
	 */
	private Duration waitTime;

	/**
	 * Lease of this lock's holds; overrides the annotation's leaseTime.
	 */
	private Duration leaseTime;

	/**
	 * Return the value of {@code setnx.lock.locks[name].wait-time}.
	 * @return the value
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * Set the value of {@code setnx.lock.locks[name].wait-time}.
	 * @param waitTime the value
	 */
	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	/**
	 * Return the value of {@code setnx.lock.locks[name].lease-time}.
	 * @return the value
	 */
	public Duration getLeaseTime() {
		return this.leaseTime;
	}

	/**
	 * Set the value of {@code setnx.lock.locks[name].lease-time}.
	 * @param leaseTime the value
	 */
	public void setLeaseTime(Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

}
