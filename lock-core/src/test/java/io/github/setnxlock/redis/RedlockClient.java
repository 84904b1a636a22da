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

import org.springframework.data.redis.connection.RedisConnectionFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisNodes;

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
		List<RedlockNode> redlockNodes = new ArrayList<>();
		try {
			for (int i = 0; i < nodes.size(); i++) {
				RedisConnectionFactory factory = RedisConnections.create(nodes.node(i), commandTimeout);
				this.factories.add(factory);
				redlockNodes.add(new RedlockNode(nodes.name(i), RedisConnections.template(factory)));
			}
			this.registry = new SetnxLockRegistry(redlockNodes, settings, listeners);
		}
		catch (RuntimeException ex) {
			this.factories.forEach(RedisConnections::destroy);
			throw ex;
		}
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
