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

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
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
import org.springframework.boot.support.EnvironmentPostProcessorApplicationListener;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The actuator {@code locks} endpoint against a real {@code redis-server}: what it lists
 * and reads, that owner tokens never show, that Spring Boot's endpoint access offers the
 * force-release only when unrestricted (or with the deprecated property), and what it
 * does.
 *
 * @author setnx-lock authors
 */
@ExtendWith(OutputCaptureExtension.class)
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
				.isEqualTo(new LocksEndpoint.ForceRelease("stuck", true));
			assertThat(context.getBean(LocksEndpoint.class).lock("stuck").held()).isFalse();
			assertThat(forceRelease.invoke(invocation("stuck")))
				.isEqualTo(new LocksEndpoint.ForceRelease("stuck", false));
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
	void unrestrictedAccessBeyondTheMaximumPermittedOffersNoForceRelease() {
		runner()
			.withPropertyValues("management.endpoint.locks.access=unrestricted",
					"management.endpoints.access.max-permitted=read-only")
			.run((context) -> assertThat(offeredOperations(context)).extracting(Operation::getType)
				.doesNotContain(OperationType.DELETE));
	}

	@Test
	void theDeprecatedPropertyStillOffersTheForceReleaseAndIsWarnedOf(CapturedOutput output) {
		runner().withPropertyValues("setnx.lock.endpoint.force-release.enabled=true")
			.withInitializer(LocksEndpointAutoConfigurationTests::postProcessEnvironment)
			.run((context) -> {
				LeasedLock held = context.getBean(LockRegistry.class).obtain("held-before-deprecation");
				assertThat(held.tryLock(Duration.ZERO, Duration.ofMinutes(5))).isTrue();
				assertThat(forceRelease(context).invoke(invocation("held-before-deprecation")))
					.isEqualTo(new LocksEndpoint.ForceRelease("held-before-deprecation", true));
				assertThatExceptionOfType(LockLostException.class).isThrownBy(held::unlock);
				assertThat(output).contains("setnx.lock.endpoint.force-release.enabled is deprecated: set"
						+ " management.endpoint.locks.access=unrestricted instead to offer the locks endpoint's"
						+ " force-release operation");
			});
	}

	@Test
	void theDeprecatedPropertyYieldsToAnAccessTheApplicationSets() {
		runner()
			.withPropertyValues("setnx.lock.endpoint.force-release.enabled=true",
					"management.endpoint.locks.access=read-only")
			.withInitializer(LocksEndpointAutoConfigurationTests::postProcessEnvironment)
			.run((context) -> assertThat(offeredOperations(context)).extracting(Operation::getType)
				.doesNotContain(OperationType.DELETE));
		runner()
			.withPropertyValues("setnx.lock.endpoint.force-release.enabled=true",
					"management.endpoints.access.max-permitted=read-only")
			.withInitializer(LocksEndpointAutoConfigurationTests::postProcessEnvironment)
			.run((context) -> assertThat(offeredOperations(context)).extracting(Operation::getType)
				.doesNotContain(OperationType.DELETE));
		// Boot reads an endpoint's own access before the global default, so the old
		// property must not turn a read-only default into an unrestricted endpoint.
		runner()
			.withPropertyValues("setnx.lock.endpoint.force-release.enabled=true",
					"management.endpoints.access.default=read-only")
			.withInitializer(LocksEndpointAutoConfigurationTests::postProcessEnvironment)
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
	void theDeprecatedPropertyBesideBootsOldEnabledSwitchDoesNotStopStartUp(CapturedOutput output) {
		// Boot refuses management.endpoint.locks.access beside .enabled: the old property
		// adds no access of its own then, and the warning says it is ignored.
		runner()
			.withPropertyValues("setnx.lock.endpoint.force-release.enabled=true",
					"management.endpoint.locks.enabled=true")
			.withInitializer(LocksEndpointAutoConfigurationTests::postProcessEnvironment)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getEnvironment()
					.getPropertySources()
					.contains(ForceReleaseAccessEnvironmentPostProcessor.PROPERTY_SOURCE_NAME)).isFalse();
				assertThat(offeredOperations(context)).extracting(Operation::getType).contains(OperationType.READ);
				assertThat(output).contains(
						"it is ignored here, as management.endpoint.locks.enabled decides the" + " endpoint's access");
			});
	}

	@Test
	void anApplicationPostProcessesItsEnvironmentForTheDeprecatedProperty() {
		try (ConfigurableApplicationContext context = application()
			.run("--setnx.lock.endpoint.force-release.enabled=true")) {
			assertThat(context.getEnvironment().getProperty("management.endpoint.locks.access"))
				.isEqualTo("unrestricted");
		}
		try (ConfigurableApplicationContext context = application().run()) {
			assertThat(context.getEnvironment().getProperty("management.endpoint.locks.access")).isNull();
		}
	}

	private static SpringApplication application() {
		SpringApplication application = new SpringApplication(Object.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		// Only the listener that runs the environment post-processors found in
		// spring.factories: the logging system stays as the other test classes use it.
		application.setListeners(List.of(new EnvironmentPostProcessorApplicationListener()));
		return application;
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

	private static void postProcessEnvironment(ConfigurableApplicationContext context) {
		new ForceReleaseAccessEnvironmentPostProcessor().postProcessEnvironment(context.getEnvironment(),
				new SpringApplication());
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
