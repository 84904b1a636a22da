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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.observation.DefaultLockObservationConvention;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockObservationContext;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One pipeline for lock observability under Spring Boot's own observation and metrics
 * auto-configuration, against a real {@code redis-server}: Boot's default meter
 * observation handler times each phase once, from its observation, under the names and
 * tags dashboards read; the observations still reach the application's other handlers;
 * and the application's observation conventions name them, timers included.
 *
 * @author setnx-lock authors
 */
class LockObservationPipelineTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ApplicationContextRunner runner;

	@BeforeAll
	static void createRunner() {
		runner = RedisContextRunners
			.withRedis(redis.server(), DistributedLockAutoConfiguration.class, SetnxLockMetricsAutoConfiguration.class)
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withBean(SeenObservations.class, SeenObservations::new);
	}

	@Test
	void eachPhaseIsTimedOnceFromItsObservation() {
		runner.run((context) -> {
			LockRegistry registry = context.getBean(LockRegistry.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			contendAndRelease(registry, "pipeline:once");
			assertThat(meters.get("setnx.lock.acquire")
				.tags("name", "pipeline", "result", "acquired", "protocol", "token", "error", "none")
				.timer()
				.count()).isEqualTo(1);
			assertThat(meters.get("setnx.lock.acquire").tags("name", "pipeline", "result", "timeout").timer().count())
				.isEqualTo(1);
			assertThat(meters.get("setnx.lock.hold")
				.tags("name", "pipeline", "result", "released", "protocol", "token", "error", "none")
				.timer()
				.count()).isEqualTo(1);
			// One timer per result: the lock meters' zeros are the same meters.
			assertThat(meters.get("setnx.lock.acquire").tag("name", "pipeline").timers()).hasSize(4);
			assertThat(meters.get("setnx.lock.hold").tag("name", "pipeline").timers()).hasSize(2);
			assertThat(namesOf(meters)).noneMatch((name) -> name.startsWith("setnx.lock.wait"))
				.noneMatch((name) -> name.startsWith("setnx.lock.held"));
			// The observations themselves went on: tracing and other handlers see them.
			assertThat(context.getBean(SeenObservations.class).names).contains("setnx.lock.acquire", "setnx.lock.hold");
		});
	}

	@Test
	void bootsHandlerAddsLongTaskTimersOfWaitsAndHoldsInProgress() {
		runner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("pipeline:active", "pipeline");
			lock.lock();
			try {
				assertThat(meters.get("setnx.lock.hold.active").tag("name", "pipeline").longTaskTimer().activeTasks())
					.isEqualTo(1);
			}
			finally {
				lock.unlock();
			}
			assertThat(meters.get("setnx.lock.hold.active").tag("name", "pipeline").longTaskTimer().activeTasks())
				.isZero();
			assertThat(namesOf(meters)).contains("setnx.lock.acquire.active");
		});
	}

	@Test
	void withoutBootsLongTaskTimersOnlyTheTimers() {
		runner.withPropertyValues("management.metrics.observations.ignored-meters=long-task-timer").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			contendAndRelease(context.getBean(LockRegistry.class), "pipeline:no-active");
			assertThat(namesOf(meters)).contains("setnx.lock.acquire", "setnx.lock.hold")
				.doesNotContain("setnx.lock.acquire.active", "setnx.lock.hold.active");
		});
	}

	@Test
	void withoutTheLockMetersTheTimersStayButOnlyForResultsSeen() {
		runner.withPropertyValues("setnx.lock.metrics.enabled=false").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			contendAndRelease(context.getBean(LockRegistry.class), "pipeline:boot");
			assertThat(namesOf(meters)).contains("setnx.lock.acquire", "setnx.lock.hold")
				.doesNotContain("setnx.lock.active", "setnx.lock.lost");
			assertThat(meters.get("setnx.lock.acquire").tags("name", "pipeline", "result", "acquired").timer().count())
				.isEqualTo(1);
			// No zeros registered ahead without the lock meters.
			assertThat(meters.find("setnx.lock.acquire").tag("result", "error").timers()).isEmpty();
		});
	}

	@Test
	void theApplicationsConventionsNameTheObservationsAndTheirTimers() {
		runner.withBean(LockWaitObservationConvention.class, OrderWaits::new)
			.withBean(LockHoldObservationConvention.class, OrderHolds::new)
			.run((context) -> {
				contendAndRelease(context.getBean(LockRegistry.class), "pipeline:conventions");
				assertThat(context.getBean(SeenObservations.class).names)
					.contains("orders.lock.wait", "orders.lock.hold")
					.doesNotContain("setnx.lock.acquire", "setnx.lock.hold");
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(namesOf(meters)).doesNotContain("setnx.lock.acquire", "setnx.lock.hold");
				assertThat(
						meters.get("orders.lock.wait").tags("name", "pipeline", "result", "acquired").timer().count())
					.isEqualTo(1);
				// Registered ahead under the application's names too.
				assertThat(meters.get("orders.lock.wait").tag("name", "pipeline").timers()).hasSize(4);
				assertThat(meters.get("orders.lock.hold").tag("name", "pipeline").timers()).hasSize(2);
			});
	}

	/**
	 * One acquisition that gets the lock and is released, and one that waits for it in
	 * vain from another thread.
	 */
	private static void contendAndRelease(LockRegistry registry, String key) throws Exception {
		LeasedLock lock = registry.obtain(key, "pipeline");
		lock.lock();
		try {
			assertThat(CompletableFuture.supplyAsync(() -> tryLock(registry.obtain(key, "pipeline")))
				.get(10, TimeUnit.SECONDS)).isFalse();
		}
		finally {
			lock.unlock();
		}
	}

	private static boolean tryLock(LeasedLock lock) {
		try {
			return lock.tryLock(Duration.ofMillis(500));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> namesOf(MeterRegistry meters) {
		return meters.getMeters().stream().map(Meter::getId).map(Meter.Id::getName).toList();
	}

	/**
	 * An application's handler of observations: records the names of lock observations.
	 */
	static class SeenObservations implements ObservationHandler<LockObservationContext> {

		final List<String> names = new CopyOnWriteArrayList<>();

		@Override
		public void onStop(LockObservationContext context) {
			this.names.add(context.getName());
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LockObservationContext;
		}

	}

	static class OrderWaits extends DefaultLockObservationConvention.Waits {

		OrderWaits() {
			super("orders.lock.wait");
		}

	}

	static class OrderHolds extends DefaultLockObservationConvention.Holds {

		OrderHolds() {
			super("orders.lock.hold");
		}

	}

}
