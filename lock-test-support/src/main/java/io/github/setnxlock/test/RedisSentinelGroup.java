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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Redis primary, one replica and one Sentinel that watches them under the name
 * {@link #MASTER_NAME}, all {@code redis-server} processes on free loopback ports (the
 * Sentinel is the same binary run with {@code --sentinel}, so the binary bundled in
 * embedded-redis does as well as an installed one). A test connects through the Sentinel,
 * as an application would, and {@link #failover() fails over} to the replica.
 * <p>
 * One Sentinel with a quorum of one is enough to fail over; it is not a production
 * layout.
 *
 * @author setnx-lock authors
 */
public final class RedisSentinelGroup implements AutoCloseable {

	/**
	 * The name under which the Sentinel knows the primary.
	 */
	public static final String MASTER_NAME = "mymaster";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final RedisReplicaSet servers;

	private final Path configDirectory;

	private RedisProcess sentinel;

	private RedisSentinelGroup(RedisReplicaSet servers, Path configDirectory) {
		this.servers = servers;
		this.configDirectory = configDirectory;
	}

	/**
	 * Start the primary, its replica and the Sentinel, and wait until the Sentinel knows
	 * the replica (it could not fail over otherwise).
	 * @return the running group
	 */
	public static RedisSentinelGroup start() {
		RedisReplicaSet servers = RedisReplicaSet.start(1);
		RedisSentinelGroup group;
		try {
			group = new RedisSentinelGroup(servers, Files.createTempDirectory("setnx-lock-sentinel-"));
		}
		catch (IOException ex) {
			servers.close();
			throw new UncheckedIOException(ex);
		}
		try {
			group.startSentinel();
			return group;
		}
		catch (RuntimeException ex) {
			group.close();
			throw ex;
		}
	}

	private void startSentinel() {
		RedisServer primary = this.servers.primary();
		// Sentinel rewrites its configuration file, so it must be a file of its own.
		Path config = this.configDirectory.resolve("sentinel.conf");
		String text = "sentinel monitor " + MASTER_NAME + " " + primary.host() + " " + primary.port() + " 1\n"
				+ "sentinel down-after-milliseconds " + MASTER_NAME + " 500\n" + "sentinel failover-timeout "
				+ MASTER_NAME + " 5000\n";
		try {
			Files.writeString(config, text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.sentinel = RedisProcess.start(RedisBinary.find(), List.of(config.toString()), List.of("--sentinel"));
		Polling.await("the Sentinel to know the replica", TIMEOUT,
				() -> !((List<?>) this.sentinel.execute("SENTINEL", "REPLICAS", MASTER_NAME)).isEmpty());
	}

	/**
	 * Return the Sentinel.
	 * @return the Sentinel, which answers {@code SENTINEL} commands
	 */
	public RedisServer sentinel() {
		return this.sentinel;
	}

	/**
	 * Return the server the Sentinel names as primary now.
	 * @return the current primary
	 */
	public RedisServer primary() {
		int port = primaryPort();
		if (this.servers.primary().port() == port) {
			return this.servers.primary();
		}
		return this.servers.replica(0);
	}

	/**
	 * Return the server that is not the primary now.
	 * @return the current replica
	 */
	public RedisServer replica() {
		RedisServer primary = primary();
		return (primary == this.servers.primary()) ? this.servers.replica(0) : this.servers.primary();
	}

	private int primaryPort() {
		List<?> address = (List<?>) this.sentinel.execute("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
		return Integer.parseInt((String) address.get(1));
	}

	/**
	 * Wait until the replica has everything the primary has.
	 */
	public void awaitReplicated() {
		RedisServer primary = primary();
		RedisServer replica = replica();
		Polling.await("the replica in sync", TIMEOUT, () -> {
			String info = (String) primary.execute("INFO", "replication");
			String offset = RedisReplicaSet.field(info, "master_repl_offset");
			return RedisReplicaSet.field(info, "slave0").contains("port=" + replica.port() + ",")
					&& RedisReplicaSet.field(info, "slave0").contains("offset=" + offset + ",");
		});
	}

	/**
	 * Crash the primary (killed, as {@link RedisServer#stop()} does) and wait until the
	 * Sentinel has promoted the replica. A crash rather than {@code SENTINEL FAILOVER}:
	 * after a requested failover the old primary goes on taking writes until the
	 * Sentinel's next {@code INFO} of it, up to ten seconds later, demotes it and closes
	 * its clients' connections; a dead primary sends clients to the Sentinel at once.
	 * @return the new primary
	 */
	public RedisServer failover() {
		RedisServer oldPrimary = primary();
		RedisServer newPrimary = replica();
		oldPrimary.stop();
		Polling.await("the Sentinel to promote " + newPrimary, TIMEOUT, () -> primaryPort() == newPrimary.port()
				&& "master".equals(((List<?>) newPrimary.execute("ROLE")).get(0)));
		return newPrimary;
	}

	/**
	 * Stop every server and delete their files.
	 */
	@Override
	public void close() {
		if (this.sentinel != null) {
			this.sentinel.close();
		}
		this.servers.close();
		try (Stream<Path> files = Files.walk(this.configDirectory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is harmless.
		}
	}

	@Override
	public String toString() {
		return "RedisSentinelGroup[sentinel " + this.sentinel + ", " + this.servers + "]";
	}

}
