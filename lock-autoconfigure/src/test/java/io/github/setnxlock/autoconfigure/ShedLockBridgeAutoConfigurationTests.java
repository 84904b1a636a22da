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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.github.setnxlock.shedlock.SetnxLockProvider;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With ShedLock on the classpath, the starter's {@link LockProvider} locks through
 * setnx-lock with no configuration, backs off for the application's own provider, and
 * runs a {@code @SchedulerLock} job on one of two applications at a time.
 *
 * @author setnx-lock authors
 */
class ShedLockBridgeAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners.withRedis(redis.server(), ShedLockBridgeAutoConfiguration.class);
	}

	@Test
	void theProviderLocksThroughTheRegistryUnderItsPrefix() {
		runner().run((context) -> {
			LockProvider provider = context.getBean(LockProvider.class);
			assertThat(provider).isInstanceOf(SetnxLockProvider.class);
			SimpleLock lock = provider
				.lock(new LockConfiguration(ClockProvider.now(), "nightly", Duration.ofSeconds(10), Duration.ZERO))
				.orElseThrow();
			assertThat(redis.server().execute("EXISTS", "lock:shedlock:nightly")).isEqualTo(1L);
			assertThat(provider
				.lock(new LockConfiguration(ClockProvider.now(), "nightly", Duration.ofSeconds(10), Duration.ZERO)))
				.isEmpty();
			lock.unlock();
			assertThat(redis.server().execute("EXISTS", "lock:shedlock:nightly")).isEqualTo(0L);
		});
	}

	@Test
	void aJobsMetersCarryItsShedLockName() {
		runner().withConfiguration(AutoConfigurations.of(SetnxLockMetricsAutoConfiguration.class))
			.withConfiguration(RedisContextRunners.bootTimingObservations())
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				LockProvider provider = context.getBean(LockProvider.class);
				provider
					.lock(new LockConfiguration(ClockProvider.now(), "weekly", Duration.ofSeconds(10), Duration.ZERO))
					.orElseThrow()
					.unlock();
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				// Listeners hear of these holds off the completing thread.
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(
							meters.get("setnx.lock.hold").tags("name", "weekly", "result", "released").timer().count())
						.isEqualTo(1));
				assertThat(
						meters.get("setnx.lock.acquire").tags("name", "weekly", "result", "acquired").timer().count())
					.isEqualTo(1);
			});
	}

	@Test
	void anApplicationsOwnProviderWins() {
		runner().withBean("ownProvider", LockProvider.class, () -> (configuration) -> Optional.empty())
			.run((context) -> assertThat(context).hasSingleBean(LockProvider.class)
				.doesNotHaveBean(SetnxLockProvider.class));
	}

	@Test
	void withoutShedLockThereIsNoProvider() {
		runner().withClassLoader(new FilteredClassLoader(LockProvider.class))
			.run((context) -> assertThat(context).doesNotHaveBean(SetnxLockProvider.class));
	}

	@Test
	void aSchedulerLockJobRunsOnOneOfTwoApplicationsAndNotAgainWithinLockAtLeastFor() {
		AtomicInteger runs = new AtomicInteger();
		ApplicationContextRunner application = runner().withUserConfiguration(JobConfiguration.class)
			.withBean(AtomicInteger.class, () -> runs);
		application.run((first) -> application.run((second) -> {
			Job one = first.getBean(Job.class);
			Job other = second.getBean(Job.class);
			CyclicBarrier together = new CyclicBarrier(2);
			CompletableFuture<Void> a = CompletableFuture.runAsync(() -> {
				arrive(together);
				one.run();
			});
			CompletableFuture<Void> b = CompletableFuture.runAsync(() -> {
				arrive(together);
				other.run();
			});
			CompletableFuture.allOf(a, b).get(30, TimeUnit.SECONDS);
			// Both called at once: one ran; and within lockAtLeastFor nobody runs it
			// again.
			assertThat(runs).hasValue(1);
			one.run();
			other.run();
			assertThat(runs).hasValue(1);
			assertThat(redis.server().execute("EXISTS", "lock:shedlock:report")).isEqualTo(1L);
		}));
	}

	private static void arrive(CyclicBarrier barrier) {
		try {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableSchedulerLock(defaultLockAtMostFor = "30s")
	static class JobConfiguration {

		@Bean
		Job job(AtomicInteger runs) {
			return new Job(runs);
		}

	}

	static class Job {

		private final AtomicInteger runs;

		Job(AtomicInteger runs) {
			this.runs = runs;
		}

		@SchedulerLock(name = "report", lockAtLeastFor = "20s")
		public void run() {
			this.runs.incrementAndGet();
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	@Test
	void twoLockRegistriesOfTheApplicationsLeaveTheChoiceToIt() {
		runner().withBean("one", io.github.setnxlock.LockRegistry.class, NoLocks::new)
			.withBean("two", io.github.setnxlock.LockRegistry.class, NoLocks::new)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SetnxLockProvider.class));
	}

}
