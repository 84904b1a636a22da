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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An integration test as an application with Docker would write it: a Redis container
 * that Spring Boot connects to through {@link ServiceConnection @ServiceConnection}, and
 * the starter's {@link LockRegistry} on it. {@code docs/testing.md} shows this class.
 * <p>
 * It runs only with {@code -Dsetnx.lock.test.docker=true}: the build's machines need not
 * have Docker, nor reach an image registry.
 *
 * @author setnx-lock authors
 */
// The property first: its condition is checked first, and a build without it does not
// look for Docker at all.
@EnabledIfSystemProperty(named = "setnx.lock.test.docker", matches = "true",
		disabledReason = "needs Docker and the redis image: run with -Dsetnx.lock.test.docker=true")
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(properties = "spring.data.redis.timeout=5s")
class TestcontainersRedisTests {

	@Container
	@ServiceConnection(name = "redis")
	static final GenericContainer<?> redis = new GenericContainer<>("redis:7.4").withExposedPorts(6379);

	@Autowired
	private LockRegistry locks;

	@Test
	void takesALockInTheContainer() throws Exception {
		LeasedLock lock = this.locks.obtain("order:42");
		assertThat(lock.tryLock()).isTrue();
		try {
			assertThat(redis.execInContainer("redis-cli", "EXISTS", "lock:order:42").getStdout().trim()).isEqualTo("1");
		}
		finally {
			lock.unlock();
		}
	}

	/**
	 * Stands for the application's own {@code @SpringBootApplication}.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
