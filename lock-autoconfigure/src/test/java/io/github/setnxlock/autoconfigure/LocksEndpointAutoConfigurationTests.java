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
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The actuator {@code locks} endpoint against a real {@code redis-server}: what it lists
 * and reads, that owner tokens never show, that force-release exists only when turned on,
 * and what it does.
 *
 * @author setnx-lock authors
 */
class LocksEndpointAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners.withRedis(redis.server(), LocksEndpointAutoConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=locks");
	}

	@Test
	void readsListTheHeldLocksAndALocksStateWithoutItsToken() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(LocksEndpoint.class).doesNotHaveBean(ForceReleasingLocksEndpoint.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("orders:7", "orders");
			lock.lock();
			try {
				// Drawn on the first request (token protocol); the endpoint shows it
				// then.
				long token = lock.fencingToken();
				assertThat(endpoint.locks().held()).singleElement().satisfies((held) -> {
					assertThat(held.key()).isEqualTo("orders:7");
					assertThat(held.name()).isEqualTo("orders");
					assertThat(held.thread()).isEqualTo(Thread.currentThread().getName());
					assertThat(held.fencingToken()).isEqualTo(token);
					assertThat(held.leaseLeft()).isPositive();
					assertThat(held.renewed()).isTrue();
					assertThat(held.renewals()).isZero();
					assertThat(held.lost()).isFalse();
				});
				LockState state = endpoint.lock("orders:7");
				assertThat(state.held()).isTrue();
				assertThat(state.heldHere()).isTrue();
				assertThat(state.redisKey()).isEqualTo("lock:orders:7");
				assertThat(state.ttlMillis()).isPositive();
				assertThat(state.timestamp()).isNull();
				assertThat(state.toString()).doesNotContain((String) redis.server().execute("GET", "lock:orders:7"));
			}
			finally {
				lock.unlock();
			}
			assertThat(endpoint.locks().held()).isEmpty();
			assertThat(endpoint.lock("orders:7").held()).isFalse();
		});
	}

	@Test
	void anAsynchronousHoldIsListedWithTheThreadThatAskedForIt() {
		runner().run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockHandle handle = context.getBean(LockRegistry.class)
				.obtain("orders:8", "orders")
				.acquireAsync(java.time.Duration.ofSeconds(5))
				.get(5, java.util.concurrent.TimeUnit.SECONDS)
				.orElseThrow();
			assertThat(endpoint.locks().held()).singleElement().satisfies((held) -> {
				assertThat(held.key()).isEqualTo("orders:8");
				assertThat(held.thread()).isEqualTo("async (from " + Thread.currentThread().getName() + ")");
				assertThat(held.renewed()).isTrue();
				assertThat(held.lost()).isFalse();
			});
			handle.release().get(5, java.util.concurrent.TimeUnit.SECONDS);
			assertThat(endpoint.locks().held()).isEmpty();
		});
	}

	@Test
	void underTheTimestampProtocolTheStoredTimestampIsShown() {
		runner().withPropertyValues("setnx.lock.protocol=timestamp").run((context) -> {
			LeasedLock lock = context.getBean(LockRegistry.class).obtain("stamped");
			lock.lock();
			try {
				assertThat(context.getBean(LocksEndpoint.class).lock("stamped").timestamp())
					.isEqualTo(redis.server().execute("GET", "lock:stamped"));
			}
			finally {
				lock.unlock();
			}
		});
	}

	@Test
	void forceReleaseExistsOnlyWhenTurnedOnAndMovesTheFencingTokenPastTheHolder() {
		runner().withPropertyValues("setnx.lock.endpoint.force-release.enabled=true").run((context) -> {
			ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
			LockRegistry registry = context.getBean(LockRegistry.class);
			LeasedLock stuck = registry.obtain("stuck");
			assertThat(stuck.tryLock(java.time.Duration.ZERO, java.time.Duration.ofMinutes(5))).isTrue();
			long stuckToken = stuck.fencingToken();
			assertThat(endpoint.release("stuck").released()).isTrue();
			assertThat(endpoint.lock("stuck").held()).isFalse();
			assertThat(endpoint.release("stuck").released()).isFalse();
			java.util.concurrent.CompletableFuture.runAsync(() -> {
				LeasedLock next = registry.obtain("stuck");
				assertThat(next.tryLock()).isTrue();
				assertThat(next.fencingToken()).isGreaterThan(stuckToken + 1);
				next.unlock();
			}).get();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(stuck::unlock);
		});
	}

	@Test
	void anApplicationWithItsOwnLockRegistryKeepsTheEndpointOnTheSameKeys() {
		// A registry of the application's own that is not a SetnxLockRegistry: here a
		// delegate, as an application that decorates its locks would have.
		runner().withBean("ownRegistry", LockRegistry.class, OwnLockRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(LocksEndpoint.class).hasSingleBean(LockOperations.class);
			redis.server().execute("SET", "lock:elsewhere", "another-holders-token", "PX", "30000");
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockState state = endpoint.lock("elsewhere");
			assertThat(state.held()).isTrue();
			assertThat(state.heldHere()).isFalse();
			assertThat(state.redisKey()).isEqualTo("lock:elsewhere");
			assertThat(endpoint.locks().held()).isEmpty();
			redis.server().execute("DEL", "lock:elsewhere");
		});
	}

	@Test
	void whenTheActuatorIsMissingThenNoEndpoint() {
		runner()
			.withClassLoader(new FilteredClassLoader(
					"org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"))
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void whenNotExposedThenNoEndpoint() {
		runner().withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	/**
	 * A lock registry of an application's own.
	 */
	static final class OwnLockRegistry implements LockRegistry {

		@Override
		public LeasedLock obtain(String key) {
			throw new UnsupportedOperationException("not used");
		}

		@Override
		public LeasedLock obtain(String key, String name) {
			throw new UnsupportedOperationException("not used");
		}

	}

}
