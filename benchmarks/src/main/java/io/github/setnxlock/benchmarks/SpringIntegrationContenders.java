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

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Spring Integration's {@code RedisLockRegistry} with a 30 s expiry.
 *
 * @author setnx-lock authors
 */
final class SpringIntegrationContenders {

	private SpringIntegrationContenders() {
	}

	static String name(RedisLockType type) {
		return (type == RedisLockType.SPIN_LOCK) ? "Spring Integration spin" : "Spring Integration pub/sub";
	}

	static Contender create(Contenders.Server server, RedisLockType type) {
		LettuceConnectionFactory factory = server.connectionFactory();
		RedisLockRegistry registry = new RedisLockRegistry(factory, server.unique("bench:si"), Contenders.LEASE);
		registry.setRedisLockType(type);
		return new RegistryContender(name(type), registry::obtain, () -> {
			registry.destroy();
			factory.destroy();
		});
	}

}
