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
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.operator.HeldLock;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redlock through the starter, against five real {@code redis-server}s named in
 * {@code setnx.lock.redlock.nodes}: two applications exclude each other with the key on a
 * majority, any two nodes frozen change nothing, three down fail within the wait naming
 * them, fencing tokens keep increasing while the answering nodes change, the watchdog
 * keeps a hold past its lease; health and the operator API show the nodes.
 *
 * @author setnx-lock authors
 */
class RedlockAutoConfigurationTests {

	private static final String PREFIX = "lock:";

	private RedisNodes nodes;

	@BeforeEach
	void startNodes() {
		this.nodes = RedisNodes.start(5);
	}

	@AfterEach
	void stopNodes() {
		this.nodes.close();
	}

	private ApplicationContextRunner runner() {
		List<String> urls = new ArrayList<>();
		for (RedisServer node : this.nodes.nodes()) {
			urls.add("redis://" + node.host() + ":" + node.port());
		}
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class,
					SetnxLockHealthAutoConfiguration.class, SetnxLockMetricsAutoConfiguration.class))
			.withConfiguration(RedisContextRunners.bootTimingObservations())
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			// The nodes as one comma-separated value, as an environment variable gives
			// them.
			// The nodes have just started: not waiting for them to have been up a
			// lease (the delayed-restart rule, tested in lock-core).
			.withPropertyValues("setnx.lock.redlock.restart-delay=0s",
					"setnx.lock.redlock.nodes=" + String.join(",", urls),
					// No Redis where spring.data.redis points: locks must not need it.
					"spring.data.redis.port=1");
	}

	@Test
	void twoApplicationsExcludeEachOtherWithTheKeyOnAMajorityAndTheOperatorApiShowsTheNodes() {
		runner().run((first) -> runner().run((second) -> {
			assertThat(first).hasSingleBean(SetnxLockRegistry.class);
			LeasedLock lock = first.getBean(LockRegistry.class).obtain("orders");
			first.getBean(LockRegistry.class).obtain("warm-up").isLocked();
			second.getBean(LockRegistry.class).obtain("warm-up").isLocked();
			assertThat(lock.tryLock()).isTrue();
			try {
				assertThat(this.nodes.holdersOf(PREFIX + "orders")).isGreaterThanOrEqualTo(3);
				assertThat(second.getBean(LockRegistry.class).obtain("orders").tryLock(Duration.ofMillis(500)))
					.isFalse();
				List<HeldLock> held = first.getBean(LockOperations.class).heldLocks();
				assertThat(held).singleElement()
					.satisfies((hold) -> assertThat(hold.nodes()).isGreaterThanOrEqualTo(3));
				assertThat(second.getBean(LockOperations.class).inspect("orders").nodes()).isGreaterThanOrEqualTo(3);
				assertThat(second.getBean(LockOperations.class).inspect("orders").held()).isTrue();
			}
			finally {
				lock.unlock();
			}
			assertThat(second.getBean(LockRegistry.class).obtain("orders").tryLock(Duration.ofSeconds(5))).isTrue();
			second.getBean(LockRegistry.class).obtain("orders").unlock();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "orders") == 0);
		}));
	}

	@Test
	void anyTwoFrozenNodesChangeNothingAndHealthNamesThem() {
		runner().run((first) -> runner().run((second) -> {
			LockRegistry one = first.getBean(LockRegistry.class);
			LockRegistry other = second.getBean(LockRegistry.class);
			one.obtain("warm-up").isLocked();
			other.obtain("warm-up").isLocked();
			for (int[] frozen : new int[][] { { 0, 1 }, { 2, 4 } }) {
				this.nodes.pause(frozen[0]);
				this.nodes.pause(frozen[1]);
				try {
					LeasedLock lock = one.obtain("frozen");
					assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
					assertThat(this.nodes.holdersOf(PREFIX + "frozen")).isEqualTo(3);
					assertThat(first.getBean(LockOperations.class).heldLocks()).singleElement()
						.satisfies((hold) -> assertThat(hold.nodes()).isEqualTo(3));
					assertThat(other.obtain("frozen").tryLock(Duration.ofMillis(500))).isFalse();
					lock.unlock();
					assertThat(other.obtain("frozen").tryLock(Duration.ofSeconds(5))).isTrue();
					other.obtain("frozen").unlock();
					Health health = first.getBean("setnxLockHealthIndicator", HealthIndicator.class).health();
					assertThat(health.getStatus()).isEqualTo(Status.UP);
					@SuppressWarnings("unchecked")
					Map<String, String> states = (Map<String, String>) health.getDetails().get("nodes");
					assertThat(states).hasSize(5);
					assertThat(states.get(this.nodes.name(frozen[0]))).startsWith("down");
					assertThat(states.get(this.nodes.name(frozen[1]))).startsWith("down");
					assertThat(states.values().stream().filter("up"::equals)).hasSize(3);
					// Told on the events thread, after the calls.
					MeterRegistry meters = first.getBean(MeterRegistry.class);
					for (int node : frozen) {
						await().atMost(Duration.ofSeconds(10))
							.until(() -> meters.find("setnx.lock.node.failures")
								.tag("node", this.nodes.name(node))
								.tag("reason", "timeout")
								.counters()
								.stream()
								.anyMatch((counter) -> counter.count() > 0));
					}
					assertThat(meters.find("setnx.lock.acquire").tag("protocol", "redlock").timers()).isNotEmpty();
				}
				finally {
					this.nodes.resume(frozen[0]);
					this.nodes.resume(frozen[1]);
				}
			}
		}));
	}

	@Test
	void threeNodesDownFailWithinTheWaitNamingThemAndHealthIsDown() {
		runner().run((context) -> {
			LockRegistry registry = context.getBean(LockRegistry.class);
			registry.obtain("warm-up").isLocked();
			List<Integer> down = List.of(1, 2, 3);
			down.forEach(this.nodes::stop);
			LeasedLock lock = registry.obtain("down");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(2)))
				.withMessageContaining(this.nodes.name(1))
				.withMessageContaining(this.nodes.name(2))
				.withMessageContaining(this.nodes.name(3))
				.withMessageNotContaining(this.nodes.name(0))
				.withMessageNotContaining(this.nodes.name(4));
			Health health = context.getBean("setnxLockHealthIndicator", HealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(String.valueOf(health.getDetails())).contains("Only 2 of 5 Redis nodes answered");
		});
	}

	@Test
	void fencingTokensKeepIncreasingOverTwoApplicationsWhileTheAnsweringNodesChange() {
		runner().run((first) -> runner().run((second) -> {
			List<LockRegistry> registries = List.of(first.getBean(LockRegistry.class),
					second.getBean(LockRegistry.class));
			registries.forEach((registry) -> registry.obtain("warm-up").isLocked());
			long previous = 0;
			for (int round = 0; round < 6; round++) {
				int frozen = round % 5;
				int alsoFrozen = (round + 3) % 5;
				this.nodes.pause(frozen);
				this.nodes.pause(alsoFrozen);
				try {
					LeasedLock lock = registries.get(round % 2).obtain("fenced");
					assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
					long token = lock.fencingToken();
					assertThat(token).as("round %d", round).isGreaterThan(previous);
					previous = token;
					lock.unlock();
				}
				finally {
					this.nodes.resume(frozen);
					this.nodes.resume(alsoFrozen);
				}
			}
		}));
	}

	@Test
	void theWatchdogKeepsAHoldPastItsLeaseOnAMajority() {
		runner().withPropertyValues("setnx.lock.lease-time=1s", "setnx.lock.redlock.node-timeout=200ms")
			.run((context) -> {
				LeasedLock lock = context.getBean(LockRegistry.class).obtain("watched");
				assertThat(lock.tryLock()).isTrue();
				Thread.sleep(3000);
				assertThat(lock.isHeldByCurrentThread()).isTrue();
				long withTtl = this.nodes.nodes()
					.stream()
					.filter((node) -> (Long) node.execute("PTTL", PREFIX + "watched") > 0)
					.count();
				assertThat(withTtl).isGreaterThanOrEqualTo(3);
				assertThat(context.getBean(LockOperations.class).heldLocks()).singleElement()
					.satisfies((hold) -> assertThat(hold.renewals()).isPositive());
				lock.unlock();
			});
	}

	@Test
	void byDefaultNodesThatJustStartedSitOutALeaseBeforeTheyCountForALock() {
		runner().withPropertyValues("setnx.lock.redlock.restart-delay=", "setnx.lock.lease-time=3s").run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("fresh");
			long started = System.nanoTime();
			// Every node started less than a lease ago: none counts yet, so the lock
			// is not to be had, as if held, until they have been up a lease.
			assertThat(lock.tryLock(Duration.ZERO)).isFalse();
			assertThat(lock.tryLock(Duration.ofSeconds(20))).isTrue();
			assertThat(this.nodes.holdersOf(PREFIX + "fresh")).isGreaterThanOrEqualTo(3);
			lock.unlock();
		});
	}

	@Test
	void theApplicationStartsWithEveryNodeDownAndLocksOnceTheyAreBack() {
		List<Integer> all = List.of(0, 1, 2, 3, 4);
		all.forEach(this.nodes::stop);
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("late-start");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)));
			all.forEach(this.nodes::restart);
			await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
				if (lock.tryLock(Duration.ofSeconds(1))) {
					lock.unlock();
					return true;
				}
				return false;
			});
		});
	}

}
