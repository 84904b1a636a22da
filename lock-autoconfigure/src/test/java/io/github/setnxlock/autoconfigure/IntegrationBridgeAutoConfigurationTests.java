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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.integration.SetnxIntegrationLockRegistry;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * With Spring Integration on the classpath, the starter's Spring Integration
 * {@link LockRegistry} locks through setnx-lock with no configuration, backs off for the
 * application's own, runs {@code executeLocked} tasks of two applications one at a time,
 * and elects one leader across two applications.
 *
 * @author setnx-lock authors
 */
class IntegrationBridgeAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners.withRedis(redis.server(), IntegrationBridgeAutoConfiguration.class);
	}

	@Test
	void theRegistryLocksTheSetnxLockRegistrysKeys() {
		runner().run((context) -> {
			LockRegistry<?> registry = context.getBean(LockRegistry.class);
			assertThat(registry).isInstanceOf(SetnxIntegrationLockRegistry.class);
			var lock = registry.obtain("orders:7");
			lock.lock();
			assertThat(redis.server().execute("EXISTS", "lock:orders:7")).isEqualTo(1L);
			assertThat(context.getBean(io.github.setnxlock.LockRegistry.class).obtain("orders:7").isLocked()).isTrue();
			lock.unlock();
			assertThat(redis.server().execute("EXISTS", "lock:orders:7")).isEqualTo(0L);
		});
	}

	@Test
	void anApplicationsOwnRegistryWins() {
		runner().withBean("ownRegistry", LockRegistry.class, DefaultLockRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(SetnxIntegrationLockRegistry.class));
	}

	@Test
	void withoutSpringIntegrationThereIsNoRegistry() {
		runner().withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(SetnxIntegrationLockRegistry.class));
	}

	@Test
	void theLeaderInitiatorsOfTwoApplicationsElectOneLeader() {
		String role = "role-" + UUID.randomUUID();
		runner().run((first) -> runner().run((second) -> {
			LockRegistryLeaderInitiator one = initiator(first.getBean(LockRegistry.class), role);
			LockRegistryLeaderInitiator two = initiator(second.getBean(LockRegistry.class), role);
			try {
				one.start();
				two.start();
				await().atMost(Duration.ofSeconds(20))
					.until(() -> one.getContext().isLeader() || two.getContext().isLeader());
				Thread.sleep(1000);
				assertThat(one.getContext().isLeader() ^ two.getContext().isLeader()).isTrue();
				LockRegistryLeaderInitiator leader = one.getContext().isLeader() ? one : two;
				LockRegistryLeaderInitiator follower = (leader == one) ? two : one;
				leader.stop();
				await().atMost(Duration.ofSeconds(20)).until(() -> follower.getContext().isLeader());
				assertThat(leader.getContext().isLeader()).isFalse();
			}
			finally {
				one.stop();
				two.stop();
			}
		}));
	}

	@Test
	void executeLockedOfTwoApplicationsRunsUnderTheLockAndTimesOutWhileTheOtherHoldsIt() {
		String key = "report-" + UUID.randomUUID();
		runner().run((first) -> runner().run((second) -> {
			LockRegistry<?> one = first.getBean(LockRegistry.class);
			LockRegistry<?> other = second.getBean(LockRegistry.class);
			AtomicInteger otherRuns = new AtomicInteger();
			String answer = one.executeLocked(key, () -> {
				assertThat(redis.server().execute("EXISTS", "lock:" + key)).isEqualTo(1L);
				// The other application, on a thread of its own, waits in vain for the
				// key this one holds.
				CompletableFuture<Void> refused = CompletableFuture.runAsync(() -> {
					try {
						other.executeLocked(key, Duration.ofMillis(300), () -> {
							otherRuns.incrementAndGet();
						});
					}
					catch (Exception ex) {
						throw new CompletionException(ex);
					}
				});
				assertThat(refused).failsWithin(30, TimeUnit.SECONDS)
					.withThrowableOfType(Exception.class)
					.havingRootCause()
					.isInstanceOf(TimeoutException.class);
				return "done";
			});
			assertThat(answer).isEqualTo("done");
			assertThat(otherRuns).hasValue(0);
			assertThat(redis.server().execute("EXISTS", "lock:" + key)).isEqualTo(0L);
			// Released, the key is the other application's for the asking, and a
			// failing task releases it too.
			Integer value = other.executeLocked(key, Duration.ofSeconds(10), () -> {
				otherRuns.incrementAndGet();
				return otherRuns.get();
			});
			assertThat(value).isEqualTo(1);
			assertThatIllegalStateException().isThrownBy(() -> one.executeLocked(key, () -> {
				throw new IllegalStateException("task failed");
			})).withMessage("task failed");
			assertThat(redis.server().execute("EXISTS", "lock:" + key)).isEqualTo(0L);
			other.executeLocked(key, () -> {
				otherRuns.incrementAndGet();
			});
			assertThat(otherRuns).hasValue(2);
		}));
	}

	private static LockRegistryLeaderInitiator initiator(LockRegistry<?> registry, String role) {
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
				new DefaultCandidate(UUID.randomUUID().toString(), role));
		initiator.setHeartBeatMillis(100);
		initiator.setBusyWaitMillis(20);
		return initiator;
	}

	@Test
	void twoLockRegistriesOfTheApplicationsLeaveTheChoiceToIt() {
		runner().withBean("one", io.github.setnxlock.LockRegistry.class, NoLocks::new)
			.withBean("two", io.github.setnxlock.LockRegistry.class, NoLocks::new)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SetnxIntegrationLockRegistry.class));
	}

}
