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
 * Settings of the local hand-off: a release while another thread of this application
 * waits for the lock passes the Redis key to that thread without a round trip (token
 * protocol).
 *
 * @author setnx-lock authors
 */
public class LocalHandoffProperties {

	/**
	 * Whether releases pass the lock to a waiting thread of this application without a
	 * round trip to Redis.
	 */
	private boolean enabled = true;

	/**
	 * How many hand-offs at most before a read of the key rules out a waiter of another
	 * application, and once one is known, before a release goes back through Redis.
	 */
	private int maxHandoffs = 2;

	/**
	 * How long hand-offs go on at most, once a waiter of another application is known,
	 * before a release goes back through Redis.
	 */
	private Duration maxTime = Duration.ofMillis(5);

	/**
	 * Return the value of {@code setnx.lock.local-handoff.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set the value of {@code setnx.lock.local-handoff.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the value of {@code setnx.lock.local-handoff.max-handoffs}.
	 * @return the value
	 */
	public int getMaxHandoffs() {
		return this.maxHandoffs;
	}

	/**
	 * Set the value of {@code setnx.lock.local-handoff.max-handoffs}.
	 * @param maxHandoffs the value
	 */
	public void setMaxHandoffs(int maxHandoffs) {
		this.maxHandoffs = maxHandoffs;
	}

	/**
	 * Return the value of {@code setnx.lock.local-handoff.max-time}.
	 * @return the value
	 */
	public Duration getMaxTime() {
		return this.maxTime;
	}

	/**
	 * Set the value of {@code setnx.lock.local-handoff.max-time}.
	 * @param maxTime the value
	 */
	public void setMaxTime(Duration maxTime) {
		this.maxTime = maxTime;
	}

}
