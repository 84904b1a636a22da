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

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.annotation.DistributedLockAdvisor;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.annotation.LockTimings;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.LocalHandoffSettings;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.redis.TimestampUnit;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every condition and property of {@link SetnxLockAutoConfiguration} and
 * {@link DistributedLockAutoConfiguration}, with Spring Boot's Redis auto-configuration
 * pointed at a real {@code redis-server}.
 *
 * @author setnx-lock authors
 */
@ExtendWith(OutputCaptureExtension.class)
@ResourceLock(Resources.SYSTEM_OUT)
@ResourceLock(Resources.SYSTEM_ERR)
class SetnxLockAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ApplicationContextRunner runner;

	@BeforeAll
	static void createRunner() {
		RedisServer server = redis.server();
		runner = RedisContextRunners.withRedis(server, DistributedLockAutoConfiguration.class);
	}

	@Test
	void whenRedisIsConfiguredThenRegistryTimingsAndAdviceWithDefaults() {
		runner.run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class)
				.hasSingleBean(SetnxLockRegistry.class)
				.hasSingleBean(LockTimings.class)
				.hasSingleBean(DistributedLockAdvisor.class);
			SetnxLockSettings settings = context.getBean(SetnxLockRegistry.class).getSettings();
			assertThat(settings.keyPrefix()).isEqualTo("lock:");
			assertThat(settings.protocol()).isEqualTo(LockProtocol.TOKEN);
			assertThat(settings.leaseTime()).isEqualTo(Duration.ofSeconds(30));
			assertThat(settings.timestampUnit()).isEqualTo(TimestampUnit.SECONDS);
			assertThat(settings.timestampClock()).isEqualTo(TimestampClock.REDIS);
			assertThat(settings.renewal()).isTrue();
			assertThat(settings.maxHold()).isNull();
			assertThat(settings.releaseChannel()).isEqualTo("setnx-lock:released");
			assertThat(settings.keyspaceNotifications()).isFalse();
			assertThat(context.getBean(LockTimings.class).waitTime("any", null)).isEqualTo(Duration.ofSeconds(5));
			assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
				.isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER);
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("autoconfigured");
			assertThat(lock.tryLock()).isTrue();
			assertThat(context.getBean(StringRedisTemplate.class).hasKey("lock:autoconfigured")).isTrue();
			lock.unlock();
		});
	}

	@Test
	void propertiesReachTheRegistryInLowerCase() {
		runner
			.withPropertyValues("setnx.lock.key-prefix=", "setnx.lock.protocol=timestamp", "setnx.lock.lease-time=45s",
					"setnx.lock.timestamp.unit=milliseconds", "setnx.lock.timestamp.clock=local",
					"setnx.lock.wait-time=250ms", "setnx.lock.aspect.order=42", "setnx.lock.renewal.enabled=false",
					"setnx.lock.renewal.max-hold=10m", "setnx.lock.release-channel=app:released",
					"setnx.lock.timestamp.keyspace-notifications=true")
			.run((context) -> {
				SetnxLockSettings settings = context.getBean(SetnxLockRegistry.class).getSettings();
				assertThat(settings.keyPrefix()).isEmpty();
				assertThat(settings.protocol()).isEqualTo(LockProtocol.TIMESTAMP);
				assertThat(settings.leaseTime()).isEqualTo(Duration.ofSeconds(45));
				assertThat(settings.timestampUnit()).isEqualTo(TimestampUnit.MILLISECONDS);
				assertThat(settings.timestampClock()).isEqualTo(TimestampClock.LOCAL);
				assertThat(settings.renewal()).isFalse();
				assertThat(settings.maxHold()).isEqualTo(Duration.ofMinutes(10));
				assertThat(settings.releaseChannel()).isEqualTo("app:released");
				assertThat(settings.keyspaceNotifications()).isTrue();
				assertThat(context.getBean(LockTimings.class).waitTime("any", null)).isEqualTo(Duration.ofMillis(250));
				assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
			});
	}

	@Test
	void perLockSettingsTakePrecedenceOverTheAnnotation() {
		runner
			.withPropertyValues("setnx.lock.locks[Guarded.run].wait-time=0s",
					"setnx.lock.locks[Guarded.run].lease-time=2s", "setnx.lock.wait-time=7s")
			.run((context) -> {
				LockTimings timings = context.getBean(LockTimings.class);
				assertThat(timings.waitTime("Guarded.run", Duration.ofSeconds(10))).isZero();
				assertThat(timings.leaseTime("Guarded.run", Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(2));
				assertThat(timings.waitTime("other", Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
				assertThat(timings.waitTime("other", null)).isEqualTo(Duration.ofSeconds(7));
				assertThat(timings.leaseTime("other", null)).isNull();
			});
	}

	@Test
	void annotatedBeansAreLockedWithTheirPerLockSettings() {
		runner.withUserConfiguration(GuardedConfiguration.class)
			.withPropertyValues("setnx.lock.locks[Guarded.run].wait-time=0s")
			.run((context) -> {
				Guarded guarded = context.getBean(Guarded.class);
				assertThat(AopUtils.isAopProxy(guarded)).isTrue();
				assertThat(guarded.run()).isEqualTo("held lock:Guarded.run");
				LeasedLock lock = context.getBean(LockRegistry.class).obtain("Guarded.run");
				lock.lock();
				try {
					CompletableFuture
						.runAsync(
								() -> assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(guarded::run)
									.satisfies((ex) -> assertThat(ex.getWaitTime()).isZero()))
						.get(10, TimeUnit.SECONDS);
				}
				finally {
					lock.unlock();
				}
			});
	}

	@Test
	void aCommandTimeoutNotShorterThanTheLeaseIsWarnedOfAtStartUp(CapturedOutput output) {
		runner.withPropertyValues("spring.data.redis.timeout=60s", "setnx.lock.lease-time=30s").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(SetnxLockRegistry.class);
			assertThat(output)
				.contains("The Redis command timeout (PT1M, spring.data.redis.timeout) is not shorter"
						+ " than the lock lease (PT30S")
				.contains("Set spring.data.redis.timeout to a few seconds");
		});
	}

	@Test
	void aLeaseShorterThanAFewSecondsCommandTimeoutIsTheSettingTheWarningNames(CapturedOutput output) {
		runner.withPropertyValues("spring.data.redis.timeout=2s", "setnx.lock.lease-time=5").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(SetnxLockRegistry.class);
			assertThat(output).contains("not shorter than the lock lease (PT0.005S, setnx.lock.lease-time)")
				.contains("Set setnx.lock.lease-time well above the command timeout")
				.doesNotContain("Set spring.data.redis.timeout");
		});
	}

	@Test
	void aCommandTimeoutShorterThanTheLeaseIsNotWarnedOf(CapturedOutput output) {
		runner.withPropertyValues("spring.data.redis.timeout=2s", "setnx.lock.lease-time=30s").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(SetnxLockRegistry.class);
			assertThat(output).doesNotContain("is not shorter than the lock lease");
		});
	}

	@Test
	void perLockSettingsThatNameNoLockAreReported(CapturedOutput output) {
		runner.withUserConfiguration(GuardedConfiguration.class)
			.withPropertyValues("setnx.lock.locks[Guarded.run].wait-time=1s",
					"setnx.lock.locks.Guarded.run.lease-time=1s", "setnx.lock.locks[Gaurded.run].wait-time=1s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(DistributedLockAdvisor.class).lockNames()).containsExactly("Guarded.run");
				assertThat(output)
					.contains("setnx.lock.locks.guarded.run.lease-time is not bound: write a lock name with dots in"
							+ " brackets, such as setnx.lock.locks[Guarded.run].lease-time")
					.contains("setnx.lock.locks[Gaurded.run] names no @DistributedLock method of a singleton bean"
							+ " (lock names: [Guarded.run])")
					.doesNotContain("setnx.lock.locks[Guarded.run] names no");
			});
	}

	@Test
	void twoRegistriesLeaveTheAdviceOut() {
		runner.withUserConfiguration(UserRegistryConfiguration.class)
			.withBean("secondRegistry", LockRegistry.class, () -> new SetnxLockRegistry(new StringRedisTemplate()))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void aLostLockReachesListenerBeansAndEventListeners() {
		runner.withUserConfiguration(LostLockConfiguration.class).run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("short-lived", "short");
			assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
			Thread.sleep(300);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			LostLockConfiguration received = context.getBean(LostLockConfiguration.class);
			assertThat(received.heardByListener).singleElement()
				.satisfies((event) -> assertThat(event.name()).isEqualTo("short"));
			assertThat(received.heardByEventListener).singleElement()
				.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.LEASE_ENDED));
		});
	}

	@Test
	void withAnObservationRegistryWaitsAndHoldsAreObserved() {
		runner.withBean(ObservationRegistry.class, TestObservationRegistry::create).run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("observed", "observed");
			lock.lock();
			lock.unlock();
			TestObservationRegistryAssert
				.assertThat((TestObservationRegistry) context.getBean(ObservationRegistry.class))
				.hasObservationWithNameEqualTo("setnx.lock.hold")
				.that()
				.hasLowCardinalityKeyValue("name", "observed");
		});
	}

	@Test
	void whenTheUserDefinesARegistryThenTheAutoConfiguredOneBacksOff() {
		runner.withUserConfiguration(UserRegistryConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class).hasBean("userRegistry");
			assertThat(context).doesNotHaveBean("setnxLockRegistry");
			assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
		});
	}

	@Test
	void whenTheUserDefinesTimingsThenTheAutoConfiguredOnesBackOff() {
		runner.withBean("userTimings", LockTimings.class, () -> LockTimings.withDefaultWait(Duration.ofMinutes(1)))
			.run((context) -> assertThat(context.getBean(LockTimings.class).waitTime("any", null))
				.isEqualTo(Duration.ofMinutes(1)));
	}

	@Test
	void whenDisabledThenNoRegistryAndNoAdvice() {
		runner.withPropertyValues("setnx.lock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockRegistry.class)
				.doesNotHaveBean(LockTimings.class)
				.doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void whenTheAspectIsDisabledThenARegistryButNoAdvice() {
		runner.withPropertyValues("setnx.lock.aspect.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void whenThereIsNoRedisConnectionFactoryThenNoRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SetnxLockAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockRegistry.class)
				.doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void whenSpringDataRedisIsMissingThenNothing() {
		runner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockRegistry.class)
				.doesNotHaveBean(SetnxLockProperties.class));
	}

	@Test
	void whenRedisIsDownThenTheApplicationStartsAndLockCallsFailNamingTheKey() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		runner.withPropertyValues("spring.data.redis.port=" + closedPort, "spring.data.redis.timeout=500ms")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(LockRegistry.class);
				LeasedLock lock = context.getBean(LockRegistry.class).obtain("down");
				assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::tryLock)
					.withMessageContaining("'down'");
			});
	}

	@Test
	void aNegativeLeaseFailsStartUpNamingTheProperty() {
		assertStartUpFails("setnx.lock.lease-time=-1s", "setnx.lock.lease-time");
		assertStartUpFails("setnx.lock.lease-time=0s", "setnx.lock.lease-time");
		assertStartUpFails("setnx.lock.lease-time=400d", "setnx.lock.lease-time");
		assertStartUpFails("setnx.lock.renewal.max-hold=-1m", "setnx.lock.renewal.max-hold");
		assertStartUpFails("setnx.lock.release-channel= ", "setnx.lock.release-channel");
	}

	@Test
	void theReplicationGuardIsOffByDefaultAndTakesItsProperties() {
		runner.run((context) -> assertThat(
				context.getBean(SetnxLockRegistry.class).getSettings().replicationGuardReplicas())
			.isZero());
		runner
			.withPropertyValues("setnx.lock.replication-guard.replicas=2", "setnx.lock.replication-guard.timeout=250ms")
			.run((context) -> {
				SetnxLockSettings settings = context.getBean(SetnxLockRegistry.class).getSettings();
				assertThat(settings.replicationGuardReplicas()).isEqualTo(2);
				assertThat(settings.replicationGuardTimeout()).isEqualTo(Duration.ofMillis(250));
			});
	}

	@Test
	void localHandOffIsOnByDefaultAndTakesItsProperties() {
		runner.run((context) -> assertThat(context.getBean(SetnxLockRegistry.class).getSettings().localHandoff())
			.isEqualTo(LocalHandoffSettings.DEFAULTS));
		runner
			.withPropertyValues("setnx.lock.local-handoff.enabled=false", "setnx.lock.local-handoff.max-handoffs=2",
					"setnx.lock.local-handoff.max-time=20ms")
			.run((context) -> assertThat(context.getBean(SetnxLockRegistry.class).getSettings().localHandoff())
				.isEqualTo(new LocalHandoffSettings(false, 2, Duration.ofMillis(20))));
	}

	@Test
	void aBadLocalHandOffBoundFailsStartUpNamingTheProperty() {
		assertStartUpFails("setnx.lock.local-handoff.max-handoffs=0", "setnx.lock.local-handoff.max-handoffs");
		assertStartUpFails("setnx.lock.local-handoff.max-time=0ms", "setnx.lock.local-handoff.max-time");
	}

	@Test
	void aBadReplicationGuardFailsStartUpNamingTheProperty() {
		assertStartUpFails("setnx.lock.replication-guard.replicas=-1", "setnx.lock.replication-guard.replicas");
		assertStartUpFails("setnx.lock.replication-guard.timeout=-1s", "setnx.lock.replication-guard.timeout");
		assertStartUpFails("setnx.lock.replication-guard.timeout=0ms", "setnx.lock.replication-guard.timeout");
	}

	@Test
	void aNegativeWaitFailsStartUpNamingTheProperty() {
		assertStartUpFails("setnx.lock.wait-time=-5s", "setnx.lock.wait-time");
		assertStartUpFails("setnx.lock.locks[Orders.place].wait-time=-1ms", "setnx.lock.locks.Orders.place.wait-time");
		assertStartUpFails("setnx.lock.locks[Orders.place].lease-time=0ms", "setnx.lock.locks.Orders.place.lease-time");
	}

	@Test
	void anUnknownProtocolFailsStartUpNamingTheProperty() {
		runner.withPropertyValues("setnx.lock.protocol=redlock").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("redlock");
			assertThat(context.getStartupFailure()).hasStackTraceContaining("setnx.lock.protocol");
		});
	}

	private void assertStartUpFails(String property, String name) {
		runner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.satisfies((ex) -> assertThat(((InvalidConfigurationPropertyValueException) ex).getName())
					.isEqualTo(name));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistryConfiguration {

		@Bean
		LockRegistry userRegistry(StringRedisTemplate redis) {
			return new SetnxLockRegistry(redis);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LostLockConfiguration {

		final List<LockLostEvent> heardByListener = new CopyOnWriteArrayList<>();

		final List<LockLostEvent> heardByEventListener = new CopyOnWriteArrayList<>();

		@Bean
		LockListener recordingListener() {
			return new LockListener() {

				@Override
				public void lockLost(LockLostEvent event) {
					LostLockConfiguration.this.heardByListener.add(event);
				}

			};
		}

		@EventListener
		void onLockLost(LockLostEvent event) {
			this.heardByEventListener.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class GuardedConfiguration {

		@Bean
		Guarded guarded(StringRedisTemplate redis) {
			return new Guarded(redis);
		}

	}

	static class Guarded {

		private final StringRedisTemplate redis;

		Guarded(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@DistributedLock(waitTime = "10s")
		public String run() {
			return Boolean.TRUE.equals(this.redis.hasKey("lock:Guarded.run")) ? "held lock:Guarded.run" : "not held";
		}

	}

}
