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
 * Settings of the replication guard, which makes an acquisition wait (WAIT) until
 * replicas have it, so that a failover cannot silently hand the lock to a second holder.
 *
 * @author setnx-lock authors
 */
public class ReplicationGuardProperties {

	/**
	 * How many replicas must acknowledge an acquisition within the timeout; fewer, and
	 * the acquisition is released and fails. 0 turns the guard off. Not available on
	 * Redis Cluster.
	 */
	private int replicas;

	/**
	 * How long an acquisition waits for the replicas. WAIT holds up only the
	 * acquisition's own connection (a dedicated one, not Lettuce's shared connection) for
	 * up to this long; keep it well below the client's command timeout.
	 */
	private Duration timeout = Duration.ofSeconds(1);

	/**
	 * Return the value of {@code setnx.lock.replication-guard.replicas}.
	 * @return the value
	 */
	public int getReplicas() {
		return this.replicas;
	}

	/**
	 * Set the value of {@code setnx.lock.replication-guard.replicas}.
	 * @param replicas the value
	 */
	public void setReplicas(int replicas) {
		this.replicas = replicas;
	}

	/**
	 * Return the value of {@code setnx.lock.replication-guard.timeout}.
	 * @return the value
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

	/**
	 * Set the value of {@code setnx.lock.replication-guard.timeout}.
	 * @param timeout the value
	 */
	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
