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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock meters against a real {@code redis-server}, in a context with Boot's
 * observation registry and default meter observation handler (which make the wait and
 * hold timers of the lock observations): what lock traffic records, the bounded tags,
 * start-up registration for annotated locks, and the conditions.
 *
 * @author setnx-lock authors
 */
class SetnxLockMetricsAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ApplicationContextRunner runner;

	@BeforeAll
	static void createRunner() {
		RedisServer server = redis.server();
		runner = RedisContextRunners
			.withRedis(server, DistributedLockAutoConfiguration.class, SetnxLockMetricsAutoConfiguration.class)
			.withConfiguration(RedisContextRunners.bootTimingObservations())
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new);
	}

	@Test
	void lockTrafficIsRecordedByNameNeverByKey() {
		runner.run((context) -> {
			LockRegistry registry = context.getBean(LockRegistry.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			for (int i = 0; i < 3; i++) {
				LeasedLock lock = registry.obtain("orders:" + i, "orders");
				lock.lock();
				assertThat(meters.get("setnx.lock.active").tag("name", "orders").gauge().value()).isEqualTo(1);
				lock.unlock();
			}
			LeasedLock held = registry.obtain("orders:busy", "orders");
			held.lock();
			CompletableFuture.supplyAsync(() -> registry.obtain("orders:busy", "orders").tryLock())
				.get(10, TimeUnit.SECONDS);
			held.unlock();
			LeasedLock unnamed = registry.obtain("plain");
			unnamed.lock();
			unnamed.unlock();
			assertThat(meters.get("setnx.lock.acquire")
				.tags("name", "orders", "result", "acquired", "protocol", "token")
				.timer()
				.count()).isEqualTo(4);
			assertThat(meters.get("setnx.lock.acquire").tags("name", "orders", "result", "timeout").timer().count())
				.isEqualTo(1);
			assertThat(meters.get("setnx.lock.hold").tags("name", "orders", "result", "released").timer().count())
				.isEqualTo(4);
			assertThat(meters.get("setnx.lock.active").tag("name", "orders").gauge().value()).isZero();
			assertThat(meters.get("setnx.lock.acquire").tags("name", "unnamed", "result", "acquired").timer().count())
				.isEqualTo(1);
			// The tags dashboards read, and Boot's handler's error tag: one timer per
			// name and result.
			assertThat(meters.get("setnx.lock.acquire").timers()).hasSize(2 * 4)
				.allSatisfy(
						(timer) -> assertThat(tagKeys(timer)).containsExactly("error", "name", "protocol", "result"));
			assertThat(meters.get("setnx.lock.hold").timers()).hasSize(2 * 2)
				.allSatisfy(
						(timer) -> assertThat(tagKeys(timer)).containsExactly("error", "name", "protocol", "result"));
			assertThat(meters.getMeters())
				.allSatisfy((meter) -> assertThat(meter.getId().getTag("name")).isIn("orders", "unnamed"));
		});
	}

	@Test
	void asynchronousHoldsAreRecordedAsAnyOther() {
		runner.run((context) -> {
			LockRegistry registry = context.getBean(LockRegistry.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			LockHandle handle = registry.obtain("jobs:1", "jobs")
				.acquireAsync(Duration.ZERO)
				.get(10, TimeUnit.SECONDS)
				.orElseThrow();
			// Listeners hear of asynchronous holds off the completing thread.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> meters.get("setnx.lock.active").tag("name", "jobs").gauge().value() == 1);
			assertThat(registry.obtain("jobs:1", "jobs").acquireAsync(Duration.ofMillis(50)).get(10, TimeUnit.SECONDS))
				.isEmpty();
			CompletableFuture<?> cancelled = registry.obtain("jobs:1", "jobs").acquireAsync(Duration.ofSeconds(30));
			cancelled.cancel(false);
			handle.release().get(10, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				assertThat(meters.get("setnx.lock.acquire").tags("name", "jobs", "result", "acquired").timer().count())
					.isEqualTo(1);
				assertThat(meters.get("setnx.lock.acquire").tags("name", "jobs", "result", "timeout").timer().count())
					.isEqualTo(1);
				assertThat(
						meters.get("setnx.lock.acquire").tags("name", "jobs", "result", "interrupted").timer().count())
					.isEqualTo(1);
				assertThat(meters.get("setnx.lock.hold").tags("name", "jobs", "result", "released").timer().count())
					.isEqualTo(1);
				assertThat(meters.get("setnx.lock.active").tag("name", "jobs").gauge().value()).isZero();
			});
		});
	}

	@Test
	void lostLocksAreCountedByReason() {
		runner.run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("short", "short");
			assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
			Thread.sleep(300);
			try {
				lock.unlock();
			}
			catch (IllegalMonitorStateException ex) {
				// Lost, as intended.
			}
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("setnx.lock.lost").tags("name", "short", "reason", "lease-ended").counter().count())
				.isEqualTo(1);
			assertThat(meters.get("setnx.lock.hold").tags("name", "short", "result", "lost").timer().count())
				.isEqualTo(1);
		});
	}

	@Test
	void annotatedLocksHaveTheirMetersFromTheStart() {
		runner.withUserConfiguration(AnnotatedConfiguration.class).run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("setnx.lock.acquire")
				.tags("name", "Reports.run", "result", "acquired", "protocol", "token", "error", "none")
				.timer()
				.count()).isZero();
			assertThat(meters.get("setnx.lock.acquire").tags("name", "Reports.run", "result", "error").timer().count())
				.isZero();
			assertThat(meters.get("setnx.lock.hold")
				.tags("name", "Reports.run", "result", "lost", "protocol", "token", "error", "none")
				.timer()
				.count()).isZero();
			assertThat(meters.get("setnx.lock.active").tag("name", "Reports.run").gauge().value()).isZero();
			assertThat(meters.get("setnx.lock.takeovers").tag("name", "Reports.run").counter().count()).isZero();
			assertThat(meters.get("setnx.lock.lost")
				.tags("name", "Reports.run", "reason", "renewal-failed")
				.counter()
				.count()).isZero();
		});
	}

	@Test
	void aFailingMeterRegistryNeverStopsALock() {
		runner.withBean("failingMeterRegistry", MeterRegistry.class, FailingMeterRegistry::new, (definition) -> {
			definition.setPrimary(true);
		}).run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("failing", "failing");
			lock.lock();
			lock.unlock();
			assertThat(lock.isLocked()).isFalse();
		});
	}

	@Test
	void whenMetricsAreDisabledThenNoMeters() {
		runner.withPropertyValues("setnx.lock.metrics.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class).doesNotHaveBean(LockMeters.class));
	}

	@Test
	void whenMetricsAreDisabledThenTheTimersStillComeFromTheObservations() {
		runner.withPropertyValues("setnx.lock.metrics.enabled=false").run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("orders:1", "orders");
			lock.lock();
			lock.unlock();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("setnx.lock.acquire")
				.tags("name", "orders", "result", "acquired", "protocol", "token", "error", "none")
				.timer()
				.count()).isEqualTo(1);
			assertThat(meters.find("setnx.lock.active").meters()).isEmpty();
		});
	}

	@Test
	void withoutAnObservationRegistryThereAreNoTimersButTheOtherMeters() {
		RedisContextRunners
			.withRedis(redis.server(), DistributedLockAutoConfiguration.class, SetnxLockMetricsAutoConfiguration.class)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(AnnotatedConfiguration.class)
			.run(SetnxLockMetricsAutoConfigurationTests::lockTrafficHasNoTimersButTheOtherMeters);
	}

	@Test
	void whenNoMeterHandlerTimesTheObservationsThenNoTimersNotEvenZeros() {
		RedisContextRunners
			.withRedis(redis.server(), DistributedLockAutoConfiguration.class, SetnxLockMetricsAutoConfiguration.class)
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(AnnotatedConfiguration.class)
			.run(SetnxLockMetricsAutoConfigurationTests::lockTrafficHasNoTimersButTheOtherMeters);
	}

	@Test
	void whenTheLockObservationsAreDisabledThenNoTimersNotEvenZeros() {
		runner.withUserConfiguration(AnnotatedConfiguration.class)
			.withPropertyValues("management.observations.enable.setnx.lock=false")
			.run(SetnxLockMetricsAutoConfigurationTests::lockTrafficHasNoTimersButTheOtherMeters);
	}

	@Test
	void whenOnlyHoldsAreNotObservedThenOnlyTheWaitTimersAreThere() {
		runner.withUserConfiguration(AnnotatedConfiguration.class)
			.withPropertyValues("management.observations.enable.setnx.lock.hold=false")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("setnx.lock.acquire").tag("name", "Reports.run").timers()).hasSize(4);
				assertThat(meters.find("setnx.lock.hold").meters()).isEmpty();
			});
	}

	@Test
	void theObservationsCommonKeyValuesTagTheTimersRegisteredAhead() {
		runner.withUserConfiguration(AnnotatedConfiguration.class)
			.withPropertyValues("management.observations.key-values.region=eu-1")
			.run((context) -> {
				LeasedLock lock = context.getBean(LockRegistry.class).obtain("Reports.run:1", "Reports.run");
				lock.lock();
				lock.unlock();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				// The zeros and the timer the lock call recorded into are the same
				// meters.
				assertThat(meters.get("setnx.lock.acquire").tag("name", "Reports.run").timers()).hasSize(4)
					.allSatisfy((timer) -> assertThat(timer.getId().getTag("region")).isEqualTo("eu-1"));
				assertThat(meters.get("setnx.lock.acquire")
					.tags("name", "Reports.run", "result", "acquired")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void whenMicrometerIsMissingThenNoMeters() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class,
					SetnxLockMetricsAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.withPropertyValues("spring.data.redis.port=" + redis.server().port())
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(LockMeters.class));
	}

	private static void lockTrafficHasNoTimersButTheOtherMeters(AssertableApplicationContext context) {
		LeasedLock lock = context.getBean(LockRegistry.class).obtain("orders:1", "orders");
		lock.lock();
		MeterRegistry meters = context.getBean(MeterRegistry.class);
		assertThat(meters.get("setnx.lock.active").tag("name", "orders").gauge().value()).isEqualTo(1);
		lock.unlock();
		assertThat(meters.get("setnx.lock.takeovers").tag("name", "Reports.run").counter().count()).isZero();
		assertThat(meters.find("setnx.lock.acquire").meters()).isEmpty();
		assertThat(meters.find("setnx.lock.hold").meters()).isEmpty();
	}

	private static List<String> tagKeys(Meter meter) {
		return meter.getId().getTags().stream().map(Tag::getKey).sorted().toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedConfiguration {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		@DistributedLock
		public void run() {
		}

	}

	/**
	 * A meter registry whose every meter fails to be created.
	 */
	static class FailingMeterRegistry extends SimpleMeterRegistry {

		@Override
		protected io.micrometer.core.instrument.Timer newTimer(io.micrometer.core.instrument.Meter.Id id,
				io.micrometer.core.instrument.distribution.DistributionStatisticConfig config,
				io.micrometer.core.instrument.distribution.pause.PauseDetector pauseDetector) {
			throw new IllegalStateException("meter registry failed");
		}

		@Override
		protected <T> io.micrometer.core.instrument.Gauge newGauge(io.micrometer.core.instrument.Meter.Id id, T obj,
				java.util.function.ToDoubleFunction<T> valueFunction) {
			throw new IllegalStateException("meter registry failed");
		}

	}

}
