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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.Operation;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.ParameterValueMapper;
import org.springframework.boot.actuate.endpoint.jmx.JmxOperation;
import org.springframework.boot.actuate.endpoint.jmx.annotation.JmxEndpointDiscoverer;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The actuator {@code locks} endpoint against a real {@code redis-server}: what it lists
 * and reads, that owner tokens never show, that Spring Boot's endpoint access offers the
 * force-release only when unrestricted, and what it does.
 *
 * @author setnx-lock authors
 */
@ExtendWith(OutputCaptureExtension.class)
@ResourceLock(Resources.SYSTEM_OUT)
@ResourceLock(Resources.SYSTEM_ERR)
class LocksEndpointAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners
			.withRedis(redis.server(), EndpointAutoConfiguration.class, LocksEndpointAutoConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=locks")
			// As SpringApplication does: access levels are written in lower case.
			.withInitializer((context) -> context.getEnvironment()
				.setConversionService(
						(ConfigurableConversionService) ApplicationConversionService.getSharedInstance()));
	}

	@Test
	void readsListTheHeldLocksAndALocksStateWithoutItsToken() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(LocksEndpoint.class);
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
				.acquireAsync(Duration.ofSeconds(5))
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
	void byDefaultTheEndpointIsReadOnlyAndOffersNoForceRelease() {
		runner().run((context) -> {
			assertThat(offeredOperations(context)).extracting(Operation::getType)
				.containsOnly(OperationType.READ)
				.hasSize(2);
			assertThat(context.getEnvironment().getProperty("management.endpoint.locks.access")).isNull();
		});
	}

	@Test
	void withUnrestrictedAccessTheForceReleaseReleasesAHeldLockAndMovesTheFencingTokenPastTheHolder() {
		runner().withPropertyValues("management.endpoint.locks.access=unrestricted").run((context) -> {
			Operation forceRelease = forceRelease(context);
			LockRegistry registry = context.getBean(LockRegistry.class);
			LeasedLock stuck = registry.obtain("stuck");
			assertThat(stuck.tryLock(Duration.ZERO, Duration.ofMinutes(5))).isTrue();
			long stuckToken = stuck.fencingToken();
			assertThat(forceRelease.invoke(invocation("stuck")))
				.isEqualTo(new LocksEndpoint.ForceRelease("stuck", true, null));
			assertThat(context.getBean(LocksEndpoint.class).lock("stuck").held()).isFalse();
			assertThat(forceRelease.invoke(invocation("stuck")))
				.isEqualTo(new LocksEndpoint.ForceRelease("stuck", false, null));
			CompletableFuture.runAsync(() -> {
				LeasedLock next = registry.obtain("stuck");
				assertThat(next.tryLock()).isTrue();
				assertThat(next.fencingToken()).isGreaterThan(stuckToken + 1);
				next.unlock();
			}).get();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(stuck::unlock);
		});
	}

	@Test
	void theForceReleaseTakesAKeyWithSlashesAndNeverGuessesWhichKeyWasMeant() {
		runner().withPropertyValues("management.endpoint.locks.access=unrestricted").run((context) -> {
			Operation forceRelease = forceRelease(context);
			LockRegistry registry = context.getBean(LockRegistry.class);
			LeasedLock stuck = registry.obtain("jobs/nightly/export");
			assertThat(stuck.tryLock(Duration.ZERO, Duration.ofMinutes(5))).isTrue();
			// Given with the prefix: nothing is released, and the answer says which key
			// the operator may have meant.
			assertThat(forceRelease.invoke(invocation("lock:jobs/nightly/export")))
				.isEqualTo(new LocksEndpoint.ForceRelease("lock:jobs/nightly/export", false,
						"No lock had the key 'lock:jobs/nightly/export'. Keys are given without the prefix 'lock:':"
								+ " the lock of Redis key 'lock:jobs/nightly/export' is 'jobs/nightly/export'."));
			assertThat(redis.server().execute("EXISTS", "lock:jobs/nightly/export")).isEqualTo(1L);
			assertThat(forceRelease.invoke(invocation("jobs/nightly/export")))
				.isEqualTo(new LocksEndpoint.ForceRelease("jobs/nightly/export", true, null));
			assertThat(redis.server().execute("EXISTS", "lock:jobs/nightly/export")).isEqualTo(0L);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(stuck::unlock);
			LeasedLock prefixed = registry.obtain("lock:audit");
			assertThat(prefixed.tryLock(Duration.ZERO, Duration.ofMinutes(5))).isTrue();
			// A key that starts with the prefix and holds a lock as given is that lock.
			assertThat(forceRelease.invoke(invocation("lock:audit")))
				.isEqualTo(new LocksEndpoint.ForceRelease("lock:audit", true, null));
			assertThatExceptionOfType(LockLostException.class).isThrownBy(prefixed::unlock);
		});
	}

	@Test
	void unrestrictedAccessBeyondTheMaximumPermittedOffersNoForceRelease() {
		runner()
			.withPropertyValues("management.endpoint.locks.access=unrestricted",
					"management.endpoints.access.max-permitted=read-only")
			.run((context) -> assertThat(offeredOperations(context)).extracting(Operation::getType)
				.doesNotContain(OperationType.DELETE));
	}

	@Test
	void theForceReleasePropertyOfBeforeTheFirstReleaseOffersNothing() {
		runner().withPropertyValues("setnx.lock.endpoint.force-release.enabled=true")
			.run((context) -> assertThat(offeredOperations(context)).extracting(Operation::getType)
				.doesNotContain(OperationType.DELETE));
	}

	@Test
	void aForceReleaseThatOnlyAGlobalDefaultOffersIsWarnedOf(CapturedOutput output) {
		runner().withPropertyValues("management.endpoints.access.default=unrestricted").run((context) -> {
			assertThat(offeredOperations(context)).extracting(Operation::getType).contains(OperationType.DELETE);
			assertThat(output).contains("The locks endpoint offers its force-release operation");
		});
	}

	@Test
	void anAskedForForceReleaseIsNotWarnedOf(CapturedOutput output) {
		runner().withPropertyValues("management.endpoint.locks.access=unrestricted").run((context) -> {
			assertThat(offeredOperations(context)).extracting(Operation::getType).contains(OperationType.DELETE);
			assertThat(output).doesNotContain("The locks endpoint offers its force-release operation");
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
	 * Return the operations of the {@code locks} endpoint that the application offers,
	 * discovered with Spring Boot's access filter as its JMX and web endpoints are.
	 */
	private static Collection<JmxOperation> offeredOperations(ApplicationContext context) {
		JmxEndpointDiscoverer discoverer = new JmxEndpointDiscoverer(context,
				context.getBean(ParameterValueMapper.class), List.of(), List.of(),
				List.of(OperationFilter.byAccess(context.getBean(EndpointAccessResolver.class))));
		return discoverer.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().equals(EndpointId.of("locks")))
			.findFirst()
			.orElseThrow()
			.getOperations();
	}

	private static Operation forceRelease(ApplicationContext context) {
		return offeredOperations(context).stream()
			.filter((operation) -> operation.getType() == OperationType.DELETE)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no force-release operation offered"));
	}

	private static InvocationContext invocation(String key) {
		return new InvocationContext(SecurityContext.NONE, Map.of("key", key));
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
