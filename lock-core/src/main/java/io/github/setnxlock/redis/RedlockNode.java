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

import java.util.List;
import java.util.Objects;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One independent Redis master of a Redlock {@link SetnxLockRegistry}: its name, for
 * errors, logs and health details, and the template that talks to it, on a connection of
 * its own.
 *
 * @param name how the node is named in errors and logs, such as {@code host:port}; never
 * a URL with credentials (a name containing {@code @} is refused)
 * @param redis the template to talk to the node with
 * @author setnx-lock authors
 */
public record RedlockNode(String name, StringRedisTemplate redis) {

	/**
	 * Check the node's parts.
	 * @param name how the node is named, such as {@code host:port}
	 * @param redis the template to talk to the node with
	 */
	public RedlockNode {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Redlock node name must not be blank, but was '" + name + "'");
		}
		if (name.contains("@")) {
			throw new IllegalArgumentException(
					"Redlock node name must not hold credentials (name it host:port), but it contains '@'");
		}
		Objects.requireNonNull(redis, "redis of Redlock node '" + name + "' must not be null");
	}

	/**
	 * Check that nodes and settings make a Redlock registry.
	 */
	static void check(List<RedlockNode> nodes, SetnxLockSettings settings) {
		if (nodes.size() < 3) {
			throw new IllegalArgumentException("Redlock needs at least 3 independent Redis nodes (a majority of 2 "
					+ "survives no failure), but got " + nodes.size());
		}
		if (nodes.size() > 63) {
			throw new IllegalArgumentException("Redlock supports at most 63 nodes, but got " + nodes.size());
		}
		if (nodes.stream().map(RedlockNode::name).distinct().count() != nodes.size()) {
			throw new IllegalArgumentException(
					"Redlock node names must be distinct, but were " + nodes.stream().map(RedlockNode::name).toList());
		}
		if (settings.protocol() != LockProtocol.TOKEN) {
			throw new IllegalArgumentException("Redlock runs the token protocol only, but protocol was "
					+ settings.protocol() + ": the timestamp protocol needs one clock and one key");
		}
		if (settings.nodeTimeout().multipliedBy(3).compareTo(settings.leaseTime()) >= 0) {
			throw new IllegalArgumentException(
					"Redlock nodeTimeout must be less than a third of the leaseTime, so that "
							+ "a slow node cannot use up a lease, but nodeTimeout was " + settings.nodeTimeout()
							+ " and leaseTime " + settings.leaseTime());
		}
		if (settings.replicationGuardReplicas() > 0) {
			throw new IllegalArgumentException("Redlock nodes are independent masters, so the replication guard "
					+ "does not apply, but replicationGuard was " + settings.replicationGuardReplicas() + " replicas");
		}
	}

}
