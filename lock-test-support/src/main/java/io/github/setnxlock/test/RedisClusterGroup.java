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
import java.util.Objects;

/**
 * A Redis Cluster, each node a {@code redis-server} process with {@code cluster-enabled}
 * on a free loopback port and its own directory (for its {@code nodes.conf}). The 16384
 * slots are split evenly over the primaries with {@code CLUSTER ADDSLOTS} (not
 * {@code ADDSLOTSRANGE}, which the Redis 6.2 bundled in embedded-redis lacks), the nodes
 * are introduced with {@code CLUSTER MEET}, and {@link #start(int)} returns once every
 * node reports {@code cluster_state:ok} and knows where every slot is.
 * <p>
 * {@link #withReplicas(int)} gives each primary a replica ({@code CLUSTER REPLICATE}) and
 * a short node timeout, so that {@link #failover(RedisServer)} can crash a primary and
 * see its replica promoted within seconds.
 *
 * @author setnx-lock authors
 */
public final class RedisClusterGroup implements AutoCloseable {

	/**
	 * The number of hash slots of a Redis Cluster.
	 */
	public static final int SLOTS = 16384;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	/**
	 * The node timeout of a cluster with replicas: how soon a dead primary is failed
	 * over.
	 */
	private static final Duration FAILOVER_NODE_TIMEOUT = Duration.ofMillis(1000);

	/**
	 * The primaries, in the order of their slots; a promoted replica takes its primary's
	 * place.
	 */
	private final List<RedisProcess> nodes = new ArrayList<>();

	/** Each primary's replica, by the primary's index, while it has one. */
	private final List<RedisProcess> replicas = new ArrayList<>();

	private final List<RedisProcess> stopped = new ArrayList<>();

	private RedisClusterGroup() {
	}

	/**
	 * Start a cluster and wait until it serves every slot.
	 * @param primaries how many primaries, at least three (what Redis Cluster asks of a
	 * real deployment)
	 * @return the running cluster
	 */
	public static RedisClusterGroup start(int primaries) {
		return start(primaries, false);
	}

	/**
	 * Start a cluster whose primaries have a replica each, and wait until every replica
	 * follows its primary.
	 * @param primaries how many primaries, at least three
	 * @return the running cluster
	 */
	public static RedisClusterGroup withReplicas(int primaries) {
		return start(primaries, true);
	}

	private static RedisClusterGroup start(int primaries, boolean replicated) {
		if (primaries < 3) {
			throw new IllegalArgumentException("A cluster needs at least 3 primaries, but was " + primaries);
		}
		List<String> arguments = List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
				"--cluster-node-timeout", replicated ? Long.toString(FAILOVER_NODE_TIMEOUT.toMillis()) : "5000");
		RedisClusterGroup cluster = new RedisClusterGroup();
		try {
			for (int i = 0; i < primaries; i++) {
				cluster.nodes.add(RedisProcess.start(RedisBinary.find(), arguments));
				if (replicated) {
					cluster.replicas.add(RedisProcess.start(RedisBinary.find(), arguments));
				}
			}
			cluster.assignSlots();
			RedisProcess first = cluster.nodes.get(0);
			for (RedisProcess node : cluster.processes().subList(1, cluster.processes().size())) {
				first.execute("CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
			}
			cluster.awaitReady();
			for (int i = 0; i < cluster.replicas.size(); i++) {
				RedisProcess replica = cluster.replicas.get(i);
				String primaryId = (String) cluster.nodes.get(i).execute("CLUSTER", "MYID");
				Polling.await(replica + " to know its primary", TIMEOUT,
						() -> ((String) replica.execute("CLUSTER", "NODES")).contains(primaryId));
				replica.execute("CLUSTER", "REPLICATE", primaryId);
			}
			for (int i = 0; i < cluster.replicas.size(); i++) {
				cluster.awaitReplicated(cluster.nodes.get(i));
			}
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

	private List<RedisProcess> processes() {
		List<RedisProcess> processes = new ArrayList<>(this.nodes);
		processes.addAll(this.replicas);
		return processes;
	}

	private void awaitReady() {
		int known = this.nodes.size() + this.replicas.size() + this.stopped.size();
		for (RedisProcess node : this.nodes) {
			Polling.await(node + " to see the whole cluster", TIMEOUT, () -> {
				String info = (String) node.execute("CLUSTER", "INFO");
				return info.contains("cluster_state:ok")
						&& RedisReplicaSet.field(info, "cluster_known_nodes").equals(Integer.toString(known))
						&& RedisReplicaSet.field(info, "cluster_slots_ok").equals(Integer.toString(SLOTS))
						&& ((List<?>) node.execute("CLUSTER", "SLOTS")).size() == this.nodes.size();
			});
		}
	}

	/**
	 * Return the primaries.
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
	 * Return the replicas that run.
	 * @return every running replica
	 */
	public List<RedisServer> replicas() {
		return this.replicas.stream().filter(Objects::nonNull).map(RedisServer.class::cast).toList();
	}

	/**
	 * Return a primary's replica.
	 * @param primary the primary
	 * @return its replica, or {@code null} if it has none (any more)
	 */
	public RedisServer replicaOf(RedisServer primary) {
		int index = this.nodes.indexOf(primary);
		return (index < this.replicas.size()) ? this.replicas.get(index) : null;
	}

	/**
	 * Crash a replica (killed, as {@link RedisServer#stop()} does); its primary goes on
	 * without one.
	 * @param replica the replica
	 */
	public void stopReplica(RedisServer replica) {
		int index = this.replicas.indexOf(replica);
		if (index < 0) {
			throw new IllegalArgumentException(replica + " is not a running replica of " + this);
		}
		this.replicas.get(index).stop();
		this.stopped.add(this.replicas.get(index));
		this.replicas.set(index, null);
	}

	/**
	 * Wait until a primary's replica has everything the primary has.
	 * @param primary the primary
	 */
	public void awaitReplicated(RedisServer primary) {
		RedisProcess replica = this.replicas.get(this.nodes.indexOf(primary));
		Polling.await(replica + " in sync with " + primary, TIMEOUT, () -> {
			String info = (String) primary.execute("INFO", "replication");
			String offset = RedisReplicaSet.field(info, "master_repl_offset");
			return info.contains("port=" + replica.port() + ",") && info.contains("offset=" + offset + ",");
		});
	}

	/**
	 * Crash a primary (killed, as {@link RedisServer#stop()} does) and wait until the
	 * cluster has promoted its replica and serves every slot again. The replica takes the
	 * primary's place in {@link #nodes()}.
	 * @param primary the primary
	 * @return the promoted replica
	 */
	public RedisServer failover(RedisServer primary) {
		int index = this.nodes.indexOf(primary);
		RedisProcess replica = this.replicas.get(index);
		this.nodes.get(index).stop();
		this.stopped.add(this.nodes.get(index));
		Polling.await(replica + " promoted", TIMEOUT,
				() -> "master".equals(((List<?>) replica.execute("ROLE")).get(0)));
		this.nodes.set(index, replica);
		this.replicas.set(index, null);
		for (RedisProcess node : this.nodes) {
			Polling.await(node + " to serve every slot again", TIMEOUT, () -> {
				String info = (String) node.execute("CLUSTER", "INFO");
				return info.contains("cluster_state:ok")
						&& RedisReplicaSet.field(info, "cluster_slots_ok").equals(Integer.toString(SLOTS));
			});
		}
		return replica;
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
		this.replicas.stream().filter(Objects::nonNull).forEach(RedisProcess::close);
		this.stopped.forEach(RedisProcess::close);
	}

	@Override
	public String toString() {
		return "RedisClusterGroup" + this.nodes;
	}

}
