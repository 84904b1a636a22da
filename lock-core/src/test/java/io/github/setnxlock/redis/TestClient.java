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
import java.util.List;

import io.github.setnxlock.LockListener;

import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis client for one test: a connection factory on a test server, its template, and
 * the registries built on it, all closed together.
 *
 * @author setnx-lock authors
 */
final class TestClient implements AutoCloseable {

	private final RedisConnectionFactory factory;

	final StringRedisTemplate redis;

	final SetnxLockRegistry registry;

	TestClient(RedisServer server, SetnxLockSettings settings) {
		this(server, settings, Duration.ofSeconds(2));
	}

	TestClient(RedisServer server, SetnxLockSettings settings, Duration commandTimeout) {
		this(server, settings, commandTimeout, List.of());
	}

	TestClient(RedisServer server, SetnxLockSettings settings, Duration commandTimeout, List<LockListener> listeners) {
		this(RedisConnections.create(server, commandTimeout), settings, listeners);
	}

	/**
	 * Create a client on a started factory, which it destroys when closed.
	 * @param factory the factory, connected as whichever Redis user the test needs
	 * @param settings the registry's settings
	 * @param listeners the registry's listeners
	 */
	TestClient(RedisConnectionFactory factory, SetnxLockSettings settings, List<LockListener> listeners) {
		this.factory = factory;
		this.redis = RedisConnections.template(this.factory);
		this.registry = new SetnxLockRegistry(this.redis, settings, listeners);
	}

	@Override
	public void close() {
		this.registry.close();
		RedisConnections.destroy(this.factory);
	}

}
