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

import java.time.Duration;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock registry's health indicator against a real {@code redis-server}: up with its
 * details (the release messages' subscription before and after the first wait), down when
 * Redis is, and its conditions.
 *
 * @author setnx-lock authors
 */
class SetnxLockHealthAutoConfigurationTests {

	/**
	 * The scripts a registry of the token protocol loads: the protocol's and the
	 * operator's.
	 */
	private static final int TOKEN_SCRIPTS = TokenLockCommands.SCRIPTS.size() + LockOperations.SCRIPTS.size();

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners.withRedis(redis.server(), SetnxLockHealthAutoConfiguration.class)
			.withPropertyValues("spring.data.redis.timeout=500ms");
	}

	@Test
	void whenRedisAnswersThenUpWithTheScriptsLoaded() {
		runner().run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("healthy");
			lock.lock();
			redis.server().execute("SCRIPT", "FLUSH");
			Health health = context.getBean("setnxLockHealthIndicator", HealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("protocol", "token")
				.containsEntry("keyPrefix", "lock:")
				.containsEntry("localKeys", 1)
				.containsEntry("scripts", TOKEN_SCRIPTS);
			// Loaded again by the check: the unlock needs no NOSCRIPT round trip.
			assertThat((String) redis.server().execute("INFO", "memory"))
				.contains("number_of_cached_scripts:" + TOKEN_SCRIPTS);
			lock.unlock();
		});
	}

	@Test
	void beforeTheFirstWaitThereIsNoSubscriptionYetAndAfterItReleaseMessagesAreListenedTo() {
		runner().run((context) -> {
			HealthIndicator indicator = context.getBean("setnxLockHealthIndicator", HealthIndicator.class);
			LockRegistry registry = context.getBean(LockRegistry.class);
			LeasedLock free = registry.obtain("free");
			// Taking a free lock does not subscribe.
			assertThat(free.tryLock()).isTrue();
			free.unlock();
			assertThat(indicator.health().getDetails()).containsEntry("releaseMessages", "no subscription yet");
			// Held by another application: a waiter of this one listens for its release.
			redis.server().execute("SET", "lock:first-wait", "another-holders-token", "PX", "60000");
			try {
				assertThat(registry.obtain("first-wait").tryLock(Duration.ofMillis(500))).isFalse();
			}
			finally {
				redis.server().execute("DEL", "lock:first-wait");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(indicator.health().getDetails()).containsEntry("releaseMessages",
						"listening"));
		});
	}

	@Test
	void whenRedisIsDownThenDown() {
		runner().run((context) -> {
			redis.server().stop();
			try {
				Health health = context.getBean("setnxLockHealthIndicator", HealthIndicator.class).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails()).containsKey("error");
			}
			finally {
				redis.server().restart();
			}
		});
	}

	@Test
	void whenRedisStallsThenDownWithinASecondWhateverTheCommandTimeout() {
		// A command timeout far longer than the bound, as Lettuce's default of a minute
		// is.
		runner().withPropertyValues("spring.data.redis.timeout=20s").run((context) -> {
			HealthIndicator indicator = context.getBean("setnxLockHealthIndicator", HealthIndicator.class);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			redis.server().pause();
			try {
				long start = System.nanoTime();
				Health health = indicator.health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(String.valueOf(health.getDetails().get("error"))).contains("did not answer within 1000 ms");
				// A second, and room for a loaded machine.
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			}
			finally {
				redis.server().resume();
			}
		});
	}

	@Test
	void whenTurnedOffThenNoIndicator() {
		runner().withPropertyValues("management.health.setnxlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("setnxLockHealthIndicator"));
	}

	@Test
	void whenHealthSupportIsMissingThenNoIndicator() {
		runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean("setnxLockHealthIndicator"));
	}

}
