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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.springframework.data.redis.connection.RedisConnectionFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.TcpProxy;

/**
 * A Redlock registry on the servers of a {@link RedisNodes}, each through a connection
 * factory of its own, which closing destroys.
 *
 * @author setnx-lock authors
 */
final class RedlockClient implements AutoCloseable {

	private final List<RedisConnectionFactory> factories = new ArrayList<>();

	final SetnxLockRegistry registry;

	RedlockClient(RedisNodes nodes, SetnxLockSettings settings) {
		this(nodes, settings, Duration.ofSeconds(2), List.of());
	}

	RedlockClient(RedisNodes nodes, SetnxLockSettings settings, Duration commandTimeout, List<LockListener> listeners) {
		this(nodes.size(), nodes::name, (i) -> RedisConnections.create(nodes.node(i), commandTimeout), settings,
				listeners);
	}

	private RedlockClient(int size, IntFunction<String> names, IntFunction<RedisConnectionFactory> factories,
			SetnxLockSettings settings, List<LockListener> listeners) {
		List<RedlockNode> redlockNodes = new ArrayList<>();
		try {
			for (int i = 0; i < size; i++) {
				RedisConnectionFactory factory = factories.apply(i);
				this.factories.add(factory);
				redlockNodes.add(new RedlockNode(names.apply(i), RedisConnections.template(factory)));
			}
			this.registry = new SetnxLockRegistry(redlockNodes, settings, listeners);
		}
		catch (RuntimeException ex) {
			this.factories.forEach(RedisConnections::destroy);
			throw ex;
		}
	}

	/**
	 * Return a registry on the nodes, each through the proxy given for it, if any.
	 * @param nodes the servers
	 * @param proxies the proxy in front of each server, or {@code null} for none
	 * @param refusing whether the connections refuse commands while down, as the
	 * starter's do (and so fail the commands a broken connection had not answered), or
	 * queue them and send them again on the next connection, Lettuce's default
	 * @param settings the registry's settings
	 * @param listeners its listeners
	 * @return the client
	 */
	static RedlockClient through(RedisNodes nodes, List<TcpProxy> proxies, boolean refusing, SetnxLockSettings settings,
			List<LockListener> listeners) {
		Duration timeout = Duration.ofSeconds(2);
		IntFunction<String> hosts = (i) -> (proxies.get(i) != null) ? "127.0.0.1" : nodes.node(i).host();
		IntFunction<Integer> ports = (i) -> (proxies.get(i) != null) ? proxies.get(i).port() : nodes.node(i).port();
		return new RedlockClient(nodes.size(), (i) -> hosts.apply(i) + ":" + ports.apply(i),
				(i) -> refusing ? RedisConnections.createRedlockNode(hosts.apply(i), ports.apply(i), timeout)
						: (proxies.get(i) != null) ? RedisConnections.create(proxies.get(i), timeout)
								: RedisConnections.create(nodes.node(i), timeout),
				settings, listeners);
	}

	@Override
	public void close() {
		try {
			this.registry.close();
		}
		finally {
			this.factories.forEach(RedisConnections::destroy);
		}
	}

}
