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

import io.github.setnxlock.test.RedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * Test clients on Jedis, whose calls block: the registry then runs its scripts on its own
 * threads rather than on Lettuce's asynchronous API, and the contract must hold on that
 * path too.
 *
 * @author setnx-lock authors
 */
final class JedisClients {

	private JedisClients() {
	}

	static TestClient client(RedisServer server, SetnxLockSettings settings) {
		JedisConnectionFactory factory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				JedisClientConfiguration.builder().readTimeout(Duration.ofSeconds(2)).usePooling().build());
		factory.afterPropertiesSet();
		factory.start();
		return new TestClient(factory, settings, List.of());
	}

}
