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

import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.redis.TimestampUnit;

/**
 * Settings of the timestamp protocol.
 *
 * @author setnx-lock authors
 */
public class TimestampProperties {

	/**
	 * Unit of the stored Unix timestamps: 'seconds', as in the SETNX documentation, or
	 * 'milliseconds'. Must match the other clients of the same keys.
	 */
	private TimestampUnit unit = TimestampUnit.SECONDS;

	/**
	 * Where "now" comes from: 'redis' (the server's TIME, one clock for every client) or
	 * 'local' (this JVM's clock, as clients of the documented pattern use theirs).
	 */
	private TimestampClock clock = TimestampClock.REDIS;

	/**
	 * Whether waiters also listen to the server's keyspace notifications for lock keys,
	 * so that a documented client's plain DEL wakes them at once. Needs
	 * notify-keyspace-events with 'K' and 'g' on the server.
	 */
	private boolean keyspaceNotifications;

	/**
	 * Return the value of {@code setnx.lock.timestamp.unit}.
	 * @return the value
	 */
	public TimestampUnit getUnit() {
		return this.unit;
	}

	/**
	 * Set the value of {@code setnx.lock.timestamp.unit}.
	 * @param unit the value
	 */
	public void setUnit(TimestampUnit unit) {
		this.unit = unit;
	}

	/**
	 * Return the value of {@code setnx.lock.timestamp.clock}.
	 * @return the value
	 */
	public TimestampClock getClock() {
		return this.clock;
	}

	/**
	 * Set the value of {@code setnx.lock.timestamp.clock}.
	 * @param clock the value
	 */
	public void setClock(TimestampClock clock) {
		this.clock = clock;
	}

	/**
	 * Return the value of {@code setnx.lock.timestamp.keyspace-notifications}.
	 * @return the value
	 */
	public boolean isKeyspaceNotifications() {
		return this.keyspaceNotifications;
	}

	/**
	 * Set the value of {@code setnx.lock.timestamp.keyspace-notifications}.
	 * @param keyspaceNotifications the value
	 */
	public void setKeyspaceNotifications(boolean keyspaceNotifications) {
		this.keyspaceNotifications = keyspaceNotifications;
	}

}
