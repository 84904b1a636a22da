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
 * A Redis primary with replicas, each a {@code redis-server} process on a free loopback
 * port, for tests of what replication does to locks.
 * <p>
 * Each replica reaches its primary through a {@link TcpProxy}, so a test can
 * {@link #cutReplication(int) cut} one replica off (a network partition between the two,
 * while clients still reach both) and then {@link #promote(int) promote} it, as a
 * failover to a replica that missed the latest writes would. The servers always run as
 * processes of this machine (see {@link RedisBinary}), whatever
 * {@link RedisServer#MODE_PROPERTY} says: the replicas must reach the primary at the
 * address it has here.
 *
 * @author setnx-lock authors
 */
public final class RedisReplicaSet implements AutoCloseable {

	private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(15);

	/**
	 * Arguments of every server: a replica's first sync starts at once, not after the
	 * five seconds that Redis 7 waits by default for more replicas to share a diskless
	 * transfer; any server may become a primary.
	 */
	private static final List<String> SERVER_ARGUMENTS = List.of("--repl-diskless-sync-delay", "0");

	private final RedisProcess primary;

	private final List<RedisProcess> replicas = new ArrayList<>();

	private final List<TcpProxy> links = new ArrayList<>();

	private RedisReplicaSet(RedisProcess primary) {
		this.primary = primary;
	}

	/**
	 * Start a primary and its replicas, and wait until every replica is in sync.
	 * @param replicaCount how many replicas, at least one
	 * @return the running servers
	 */
	public static RedisReplicaSet start(int replicaCount) {
		if (replicaCount < 1) {
			throw new IllegalArgumentException("A replica set needs at least one replica, but was " + replicaCount);
		}
		RedisReplicaSet set = new RedisReplicaSet(RedisProcess.start(RedisBinary.find(), SERVER_ARGUMENTS));
		try {
			for (int i = 0; i < replicaCount; i++) {
				TcpProxy link = TcpProxy.start(set.primary);
				set.links.add(link);
				List<String> arguments = new ArrayList<>(SERVER_ARGUMENTS);
				arguments.addAll(List.of("--replicaof", set.primary.host(), Integer.toString(link.port())));
				set.replicas.add(RedisProcess.start(RedisBinary.find(), arguments));
			}
			set.awaitReplicated();
			return set;
		}
		catch (RuntimeException ex) {
			set.close();
			throw ex;
		}
	}

	/**
	 * Return the primary.
	 * @return the primary, or the old primary after a {@link #promote(int) promotion}
	 */
	public RedisServer primary() {
		return this.primary;
	}

	/**
	 * Return a replica.
	 * @param index its index, from 0
	 * @return the replica
	 */
	public RedisServer replica(int index) {
		return this.replicas.get(index);
	}

	/**
	 * Return how many replicas there are.
	 * @return the number of replicas
	 */
	public int replicaCount() {
		return this.replicas.size();
	}

	/**
	 * Wait until the primary sees every replica online and acknowledging everything
	 * written so far.
	 */
	public void awaitReplicated() {
		Polling.await("every replica of " + this.primary + " in sync", SYNC_TIMEOUT, () -> {
			String info = (String) this.primary.execute("INFO", "replication");
			long offset = Long.parseLong(field(info, "master_repl_offset"));
			if (Integer.parseInt(field(info, "connected_slaves")) != this.replicas.size()) {
				return false;
			}
			for (int i = 0; i < this.replicas.size(); i++) {
				String replica = field(info, "slave" + i);
				if (!replica.contains("state=online") || !replica.contains("offset=" + offset + ",")) {
					return false;
				}
			}
			return true;
		});
	}

	/**
	 * Cut the replication link of a replica, and keep it cut: the replica keeps what it
	 * had and the primary goes on without it, while clients still reach both.
	 * @param index the replica's index
	 */
	public void cutReplication(int index) {
		this.links.get(index).cut();
		Polling.await("the primary to lose replica " + index, SYNC_TIMEOUT,
				() -> Integer.parseInt(field((String) this.primary.execute("INFO", "replication"),
						"connected_slaves")) == this.replicas.size() - 1);
	}

	/**
	 * Make a replica a primary of its own ({@code REPLICAOF NO ONE}), as a failover does.
	 * @param index the replica's index
	 */
	public void promote(int index) {
		this.replicas.get(index).execute("REPLICAOF", "NO", "ONE");
	}

	/**
	 * Stop every server and delete their files.
	 */
	@Override
	public void close() {
		this.links.forEach(TcpProxy::close);
		this.replicas.forEach(RedisProcess::close);
		this.primary.close();
	}

	static String field(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).trim();
			}
		}
		throw new IllegalStateException("No " + name + " in:\n" + info);
	}

	@Override
	public String toString() {
		return "RedisReplicaSet[primary " + this.primary + ", " + this.replicas.size() + " replicas]";
	}

}
