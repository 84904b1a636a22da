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
package io.github.setnxlock.autoconfigure;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.EmbeddedRedisServer;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An integration test as an application would write it, on a {@code redis-server} that
 * {@link EmbeddedRedisServer @EmbeddedRedisServer} starts without Docker: the starter's
 * auto-configuration connects to it, and the injected {@link LockRegistry} takes a lock
 * there. {@code docs/testing.md} shows this class.
 *
 * @author setnx-lock authors
 */
@SpringBootTest(properties = { "spring.data.redis.timeout=5s", "setnx.lock.key-prefix=orders-app:" })
@EmbeddedRedisServer
class EmbeddedRedisServerTests {

	@Autowired
	private LockRegistry locks;

	@Autowired
	private RedisServer redis;

	@Test
	void takesALockOnTheServerStartedForTheTest() {
		LeasedLock lock = this.locks.obtain("order:42");
		assertThat(lock.tryLock()).isTrue();
		try {
			assertThat(this.redis.execute("EXISTS", "orders-app:order:42")).isEqualTo(1L);
		}
		finally {
			lock.unlock();
		}
		assertThat(this.redis.execute("EXISTS", "orders-app:order:42")).isEqualTo(0L);
	}

	/**
	 * Stands for the application's own {@code @SpringBootApplication}.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
