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

package io.github.setnxlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

import io.github.setnxlock.redis.RedlockNode;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Locks held on a majority of independent {@code redis-server}s (the Redlock algorithm of
 * the Redis distributed-locks page), on the first 3 or 5 of the benchmark's servers: what
 * a majority round trip costs against the same library on one server. Each node has a
 * connection (or a client) of its own, as independent masters would; on loopback every
 * node answers about as fast, so the rows show the cost of sending to all of them and
 * waiting for a majority, not that of a slow or distant node.
 *
 * @author setnx-lock authors
 */
final class RedlockContenders {

	/**
	 * The smallest Redlock: a majority of 2 of 3 nodes.
	 */
	static final int SMALL = 3;

	/**
	 * The Redis page's example: a majority of 3 of 5 nodes.
	 */
	static final int LARGE = 5;

	private RedlockContenders() {
	}

	static String setnxLockName(int nodes) {
		return "setnx-lock Redlock " + nodes + " nodes";
	}

	static String redissonName(int nodes) {
		return "Redisson RedLock " + nodes + " nodes";
	}

	/**
	 * setnx-lock's Redlock registry with its default settings (token protocol, 30 s lease
	 * renewed while held, 100 ms per node), each node through its own Lettuce connection
	 * factory.
	 */
	static final class SetnxLockRedlock implements Contender {

		private final List<LettuceConnectionFactory> factories = new ArrayList<>();

		private final SetnxLockRegistry registry;

		private final int nodes;

		private SetnxLockRedlock(Contenders.Server server, int nodes) {
			this.nodes = nodes;
			List<RedlockNode> redlockNodes = new ArrayList<>();
			try {
				for (int node = 0; node < nodes; node++) {
					LettuceConnectionFactory factory = server.nodeConnectionFactory(node);
					this.factories.add(factory);
					redlockNodes.add(new RedlockNode(server.host() + ":" + server.ports().get(node),
							new StringRedisTemplate(factory)));
				}
				this.registry = new SetnxLockRegistry(redlockNodes,
						// The servers have just started: no waiting for them to have been
						// up a lease (the delayed-restart rule) before the rounds.
						SetnxLockSettings.builder()
							.keyPrefix(server.unique("bench:redlock") + ":")
							.restartDelay(Duration.ZERO)
							.build(),
						List.of());
			}
			catch (RuntimeException ex) {
				this.factories.forEach(LettuceConnectionFactory::destroy);
				throw ex;
			}
		}

		/**
		 * Return the contender on the server's first nodes, or {@code null} when the
		 * benchmark started fewer servers.
		 */
		static SetnxLockRedlock on(Contenders.Server server, int nodes) {
			return (server.ports().size() >= nodes) ? new SetnxLockRedlock(server, nodes) : null;
		}

		@Override
		public String name() {
			return setnxLockName(this.nodes);
		}

		@Override
		public int nodes() {
			return this.nodes;
		}

		@Override
		public KeyLock lockFor(String key) {
			return KeyLock.of(this.registry.obtain(key));
		}

		@Override
		public void close() {
			this.registry.close();
			this.factories.forEach(LettuceConnectionFactory::destroy);
		}

	}

	/**
	 * Redisson's {@code RedissonRedLock} (deprecated, but still shipped in Redisson 4):
	 * one {@code RLock} per node, each from a {@code RedissonClient} of its own, with
	 * Redisson's defaults; {@code lock()} without a lease, so each node's lock is renewed
	 * by its watchdog. It has no fencing token.
	 */
	static final class RedissonRedlock implements Contender {

		private final List<RedissonClient> clients = new ArrayList<>();

		private final String prefix;

		private final int nodes;

		private RedissonRedlock(Contenders.Server server, int nodes) {
			this.nodes = nodes;
			this.prefix = server.unique("bench:redisson-redlock");
			try {
				for (int node = 0; node < nodes; node++) {
					this.clients.add(RedissonContender.client(server.host(), server.ports().get(node)));
				}
			}
			catch (RuntimeException ex) {
				this.clients.forEach(RedissonClient::shutdown);
				throw ex;
			}
		}

		/**
		 * Return the contender on the server's first nodes, or {@code null} when the
		 * benchmark started fewer servers.
		 */
		static RedissonRedlock on(Contenders.Server server, int nodes) {
			return (server.ports().size() >= nodes) ? new RedissonRedlock(server, nodes) : null;
		}

		@Override
		public String name() {
			return redissonName(this.nodes);
		}

		@Override
		public int nodes() {
			return this.nodes;
		}

		@Override
		@SuppressWarnings("deprecation")
		public KeyLock lockFor(String key) {
			RLock[] locks = this.clients.stream()
				.map((client) -> client.getLock(this.prefix + ":" + key))
				.toArray(RLock[]::new);
			return KeyLock.of(new RedissonRedLock(locks));
		}

		@Override
		public void close() {
			this.clients.forEach(RedissonClient::shutdown);
		}

	}

}
