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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every way into the locks runs on the Redlock nodes when they are set, with no
 * {@code spring.data.redis} connection at all: {@code @DistributedLock} methods, the
 * asynchronous API, ShedLock's {@code LockProvider} and Spring Integration's
 * {@code LockRegistry} each hold their key on a majority of five real servers.
 *
 * @author setnx-lock authors
 */
class RedlockEveryWayInTests {

	private static RedisNodes nodes;

	@BeforeAll
	static void startNodes() {
		nodes = RedisNodes.start(5);
	}

	@AfterAll
	static void stopNodes() {
		nodes.close();
	}

	private ApplicationContextRunner runner() {
		List<String> urls = new ArrayList<>();
		for (RedisServer node : nodes.nodes()) {
			urls.add("redis://" + node.host() + ":" + node.port());
		}
		// No DataRedisAutoConfiguration: Redlock needs no RedisConnectionFactory.
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SetnxLockAutoConfiguration.class, DistributedLockAutoConfiguration.class,
							ShedLockBridgeAutoConfiguration.class, IntegrationBridgeAutoConfiguration.class))
			.withPropertyValues("setnx.lock.redlock.nodes=" + String.join(",", urls),
					// Fresh nodes: see RedlockAutoConfigurationTests.
					"setnx.lock.redlock.restart-delay=0s")
			.withUserConfiguration(PaymentsConfiguration.class);
	}

	@Test
	void annotatedMethodsTheAsynchronousApiAndBothBridgesHoldTheirKeysOnAMajority() {
		runner().run((context) -> {
			assertThat(context.getBean(Payments.class).pay("7")).isGreaterThanOrEqualTo(3);
			// A release is decided by a majority; the other nodes' deletes follow.
			await().atMost(Duration.ofSeconds(10)).until(() -> nodes.holdersOf("lock:Payments.pay:7") == 0);

			LockHandle handle = context.getBean(LockRegistry.class)
				.obtain("async")
				.acquireAsync(Duration.ofSeconds(5))
				.toCompletableFuture()
				.get(10, TimeUnit.SECONDS)
				.orElseThrow();
			assertThat(nodes.holdersOf("lock:async")).isGreaterThanOrEqualTo(3);
			handle.release();

			SimpleLock job = context.getBean(LockProvider.class)
				.lock(new LockConfiguration(ClockProvider.now(), "nightly", Duration.ofSeconds(10), Duration.ZERO))
				.orElseThrow();
			assertThat(nodes.holdersOf("lock:shedlock:nightly")).isGreaterThanOrEqualTo(3);
			job.unlock();

			var integration = context.getBean(org.springframework.integration.support.locks.LockRegistry.class)
				.obtain("leader");
			integration.lock();
			assertThat(nodes.holdersOf("lock:leader")).isGreaterThanOrEqualTo(3);
			integration.unlock();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> nodes.holdersOf("lock:async") + nodes.holdersOf("lock:shedlock:nightly")
						+ nodes.holdersOf("lock:leader") == 0);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class PaymentsConfiguration {

		@Bean
		Payments payments() {
			return new Payments();
		}

	}

	static class Payments {

		/**
		 * Return on how many nodes the method's own lock lives while it runs.
		 */
		@DistributedLock(key = "#p0", waitTime = "5s")
		public int pay(String id) {
			return nodes.holdersOf("lock:Payments.pay:" + id);
		}

	}

}
