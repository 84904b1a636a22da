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

package io.github.setnxlock.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.autoconfigure.LocksEndpoint;
import io.github.setnxlock.test.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter in an application on the Spring Boot line this module resolves (4.0 by
 * default, while the starter is built against 4.1): locked methods exclude each other,
 * and the meters, the health indicator and the {@code locks} endpoint are there.
 *
 * @author setnx-lock authors
 */
@SpringBootTest(classes = OlderBootApplicationTests.Application.class,
		properties = { "management.endpoints.web.exposure.include=health,locks", "spring.data.redis.timeout=2s" })
class OlderBootApplicationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry properties) {
		properties.add("spring.data.redis.host", () -> redis.server().host());
		properties.add("spring.data.redis.port", () -> redis.server().port());
	}

	@Autowired
	private Account account;

	@Autowired
	private LockRegistry locks;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private HealthEndpoint health;

	@Autowired
	private LocksEndpoint locksEndpoint;

	@Test
	void runsOnTheBootLineThisModuleResolves() {
		assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("compat.spring-boot.version"));
	}

	@Test
	void lockedDepositsFromManyThreadsAddUpAndAreMetered() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				done.add(threads.submit(() -> {
					for (int j = 0; j < 25; j++) {
						this.account.deposit("a-1", 1);
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(this.account.balance()).isEqualTo(200);
		assertThat(this.meters.get("setnx.lock.acquire")
			.tag("name", "Account.deposit")
			.tag("result", "acquired")
			.timer()
			.count()).isEqualTo(200);
	}

	@Test
	void theHealthIndicatorAndTheLocksEndpointAnswer() throws Exception {
		assertThat(this.health.healthForPath("setnxLock").getStatus()).isEqualTo(Status.UP);
		LeasedLock lock = this.locks.obtain("compat:held");
		assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		try {
			assertThat(this.locksEndpoint.locks().held())
				.anySatisfy((held) -> assertThat(held.key()).isEqualTo("compat:held"));
			assertThat(this.locksEndpoint.lock("compat:held").held()).isTrue();
		}
		finally {
			lock.unlock();
		}
	}

	@SpringBootApplication
	static class Application {

		@Bean
		Account account() {
			return new Account();
		}

	}

	static class Account {

		private int balance;

		@DistributedLock(key = "#id")
		public void deposit(String id, int amount) {
			int seen = this.balance;
			Thread.yield();
			this.balance = seen + amount;
		}

		int balance() {
			return this.balance;
		}

	}

}
