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
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of Redlock, under {@code setnx.lock.redlock}: with nodes set, the lock
 * registry runs on them instead of on the {@code spring.data.redis} connection.
 *
 * @author setnx-lock authors
 */
public class RedlockProperties {

	/**
	 * URLs of independent Redis masters to run Redlock on, at least 3, such as
	 * 'redis://host:6379', 'redis://user:password@host:6379/0' or 'rediss://host:6380'
	 * for TLS; a 'timeout' query parameter sets a node's command timeout. Locks then live
	 * on a majority of them and spring.data.redis is not used for locks.
	 */
	private List<String> nodes = new ArrayList<>();

	/**
	 * How long a node has to answer a lock call, counted from the first node's answer: a
	 * node still silent then counts as failed for that call. Less than a third of the
	 * lease.
	 */
	private Duration nodeTimeout = Duration.ofMillis(100);

	/**
	 * How long a node that restarted, or started, sits out acquisitions and fencing
	 * draws, counted from its start (the delayed restart of the Redis page), so that the
	 * locks it forgot have ended elsewhere. At least the longest lease any client of the
	 * same locks uses; the lease time when unset; 0 turns the check off, for nodes that
	 * persist every write (appendfsync always).
	 */
	private Duration restartDelay;

	/**
	 * Return the value of {@code setnx.lock.redlock.nodes}.
	 * @return the value
	 */
	public List<String> getNodes() {
		return this.nodes;
	}

	/**
	 * Set the value of {@code setnx.lock.redlock.nodes}.
	 * @param nodes the value
	 */
	public void setNodes(List<String> nodes) {
		this.nodes = nodes;
	}

	/**
	 * Return the value of {@code setnx.lock.redlock.restart-delay}.
	 * @return the value, {@code null} for the lease time
	 */
	public Duration getRestartDelay() {
		return this.restartDelay;
	}

	/**
	 * Set the value of {@code setnx.lock.redlock.restart-delay}.
	 * @param restartDelay the value
	 */
	public void setRestartDelay(Duration restartDelay) {
		this.restartDelay = restartDelay;
	}

	/**
	 * Return the value of {@code setnx.lock.redlock.node-timeout}.
	 * @return the value
	 */
	public Duration getNodeTimeout() {
		return this.nodeTimeout;
	}

	/**
	 * Set the value of {@code setnx.lock.redlock.node-timeout}.
	 * @param nodeTimeout the value
	 */
	public void setNodeTimeout(Duration nodeTimeout) {
		this.nodeTimeout = nodeTimeout;
	}

}
