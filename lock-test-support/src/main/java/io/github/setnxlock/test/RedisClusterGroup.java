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

package io.github.setnxlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis Cluster of primaries without replicas, each a {@code redis-server} process with
 * {@code cluster-enabled} on a free loopback port and its own directory (for its
 * {@code nodes.conf}). The 16384 slots are split evenly with {@code CLUSTER ADDSLOTS}
 * (not {@code ADDSLOTSRANGE}, which the Redis 6.2 bundled in embedded-redis lacks), the
 * nodes are introduced with {@code CLUSTER MEET}, and {@link #start(int)} returns once
 * every node reports {@code cluster_state:ok} and knows where every slot is.
 *
 * @author setnx-lock authors
 */
public final class RedisClusterGroup implements AutoCloseable {

	/**
	 * The number of hash slots of a Redis Cluster.
	 */
	public static final int SLOTS = 16384;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisProcess> nodes = new ArrayList<>();

	private RedisClusterGroup() {
	}

	/**
	 * Start a cluster and wait until it serves every slot.
	 * @param primaries how many primaries, at least three (what Redis Cluster asks of a
	 * real deployment)
	 * @return the running cluster
	 */
	public static RedisClusterGroup start(int primaries) {
		if (primaries < 3) {
			throw new IllegalArgumentException("A cluster needs at least 3 primaries, but was " + primaries);
		}
		RedisClusterGroup cluster = new RedisClusterGroup();
		try {
			for (int i = 0; i < primaries; i++) {
				cluster.nodes.add(RedisProcess.start(RedisBinary.find(), List.of("--cluster-enabled", "yes",
						"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000")));
			}
			cluster.assignSlots();
			RedisProcess first = cluster.nodes.get(0);
			for (RedisProcess node : cluster.nodes.subList(1, primaries)) {
				first.execute("CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
			}
			cluster.awaitReady();
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private void assignSlots() {
		for (int i = 0; i < this.nodes.size(); i++) {
			int from = SLOTS * i / this.nodes.size();
			int to = SLOTS * (i + 1) / this.nodes.size();
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			for (int slot = from; slot < to; slot++) {
				command.add(Integer.toString(slot));
			}
			this.nodes.get(i).execute(command.toArray(String[]::new));
		}
	}

	private void awaitReady() {
		for (RedisProcess node : this.nodes) {
			Polling.await(node + " to see the whole cluster", TIMEOUT, () -> {
				String info = (String) node.execute("CLUSTER", "INFO");
				return info.contains("cluster_state:ok")
						&& RedisReplicaSet.field(info, "cluster_known_nodes")
							.equals(Integer.toString(this.nodes.size()))
						&& RedisReplicaSet.field(info, "cluster_slots_ok").equals(Integer.toString(SLOTS))
						&& ((List<?>) node.execute("CLUSTER", "SLOTS")).size() == this.nodes.size();
			});
		}
	}

	/**
	 * Return the nodes.
	 * @return every primary, in the order of their slots
	 */
	public List<RedisServer> nodes() {
		return List.copyOf(this.nodes);
	}

	/**
	 * Return the hash slot of a key ({@code CLUSTER KEYSLOT}, asked of the cluster).
	 * @param key the key
	 * @return its slot
	 */
	public int slotOf(String key) {
		return ((Long) this.nodes.get(0).execute("CLUSTER", "KEYSLOT", key)).intValue();
	}

	/**
	 * Return the node that serves a key.
	 * @param key the key
	 * @return its node
	 */
	public RedisServer nodeFor(String key) {
		return this.nodes.get(nodeIndex(slotOf(key)));
	}

	private int nodeIndex(int slot) {
		for (int i = this.nodes.size() - 1; i >= 0; i--) {
			if (slot >= SLOTS * i / this.nodes.size()) {
				return i;
			}
		}
		throw new IllegalArgumentException("No slot " + slot);
	}

	/**
	 * Delete every key on every node.
	 */
	public void flushAll() {
		this.nodes.forEach((node) -> node.execute("FLUSHALL"));
	}

	/**
	 * Stop every node and delete their files.
	 */
	@Override
	public void close() {
		this.nodes.forEach(RedisProcess::close);
	}

	@Override
	public String toString() {
		return "RedisClusterGroup" + this.nodes;
	}

}
