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

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up warnings of {@link SetnxLockPropertiesCheck}: unknown names with the
 * property probably meant, durations without a unit, short leases. Each test uses names
 * and values of its own, since test classes running at the same time share the output.
 *
 * @author setnx-lock authors
 */
@ExtendWith(OutputCaptureExtension.class)
@ResourceLock(Resources.SYSTEM_OUT)
@ResourceLock(Resources.SYSTEM_ERR)
class SetnxLockPropertiesCheckTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private ApplicationContextRunner runner() {
		return RedisContextRunners.withRedis(redis.server(), DistributedLockAutoConfiguration.class);
	}

	@Test
	void aTypoInANameIsWarnedOfWithTheNameMeant(CapturedOutput output) {
		runner()
			.withPropertyValues("setnx.lock.leas-time=45s", "setnx.lock.renewal.enable=false", "setnx.lock.max-hold=7m",
					"setnx.lock.locks[Typo.run].wiat-time=2s", "setnx.lock.colour=blue")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(SetnxLockRegistry.class);
				assertThat(output)
					.contains("setnx.lock.leas-time is not a setnx-lock property and is ignored; did you mean"
							+ " setnx.lock.lease-time?")
					.contains("setnx.lock.renewal.enable is not a setnx-lock property and is ignored; did you mean"
							+ " setnx.lock.renewal.enabled?")
					.contains("setnx.lock.max-hold is not a setnx-lock property and is ignored; did you mean"
							+ " setnx.lock.renewal.max-hold?")
					.contains("setnx.lock.locks[Typo.run].wiat-time is not a setnx-lock property and is ignored;"
							+ " did you mean setnx.lock.locks[Typo.run].wait-time?")
					.contains("setnx.lock.colour is not a setnx-lock property and is ignored (");
			});
	}

	@Test
	void eachUnknownNameIsWarnedOfOnceWhereverItIsWritten(CapturedOutput output) {
		runner().withPropertyValues("setnx.lock.twice-written=1")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new MapPropertySource("second", Map.of("setnx.lock.twice-written", "2"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.toString().split("setnx.lock.twice-written is not a setnx-lock property", -1))
					.hasSize(2);
			});
	}

	@Test
	void relaxedNamesAndGroupsAreNotWarnedOf(CapturedOutput output) {
		runner()
			.withPropertyValues("setnx.lock.replicationGuard.timeout=750ms", "setnx.lock.local_handoff.max-time=3ms",
					"setnx.lock.locks[Relaxed.run].waitTime=3s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SetnxLockProperties.class).getReplicationGuard().getTimeout())
					.hasMillis(750);
				assertThat(output).doesNotContain("replicationguard")
					.doesNotContain("replicationGuard")
					.doesNotContain("local_handoff")
					.doesNotContain("Relaxed.run].waitTime is not");
			});
	}

	@Test
	void environmentVariablesAreCheckedAsSpringBootBindsThem(CapturedOutput output) {
		// Spring Boot binds SETNX_LOCK_LEASE_TIME and
		// SETNX_LOCK_REPLICATIONGUARD_TIMEOUT,
		// not SETNX_LOCK_REPLICATION_GUARD_TIMEOUT.
		Map<String, Object> variables = Map.of("SETNX_LOCK_LEASE_TIME", "45s", "SETNX_LOCK_REPLICATIONGUARD_TIMEOUT",
				"750", "SETNX_LOCK_LOCKS_ENVJOB_WAIT_TIME", "3s", "SETNX_LOCK_LEAS_TIME", "45s",
				"SETNX_LOCK_REPLICATION_GUARD_REPLICAS", "1");
		runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment", variables)))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SetnxLockProperties properties = context.getBean(SetnxLockProperties.class);
				assertThat(properties.getLeaseTime()).hasSeconds(45);
				assertThat(properties.getReplicationGuard().getTimeout()).hasMillis(750);
				assertThat(properties.getLocks().get("envjob").getWaitTime()).hasSeconds(3);
				assertThat(output).doesNotContain("setnx.lock.lease.time is not")
					.doesNotContain("setnx.lock.locks.envjob.wait.time is not")
					.contains("setnx.lock.replicationguard.timeout is 750 without a unit")
					.contains("setnx.lock.leas.time is not a setnx-lock property and is ignored")
					.doesNotContain("setnx.lock.replication.guard.replicas is not");
				assertThat(properties.getReplicationGuard().getReplicas()).isOne();
			});
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "setnx.lock.redlock.nodes[%d]", "SETNX_LOCK_REDLOCK_NODES_%d_", "SETNX_LOCK_REDLOCK_NODES_%d" })
	void theElementsOfAListAreNotWarnedOfInAnyFormTheyAreWrittenIn(String form, CapturedOutput output) {
		// Indexed (as YAML lists are read), and as environment variables with and
		// without the trailing underscore. Redlock's nodes are never connected to here.
		Map<String, Object> nodes = new LinkedHashMap<>();
		for (int i = 0; i < 3; i++) {
			nodes.put(form.formatted(i), "redis://127.0.0.1:" + (7101 + i));
		}
		runner().withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(form.startsWith("SETNX") ? new SystemEnvironmentPropertySource("test-systemEnvironment", nodes)
					: new MapPropertySource("test-yaml", nodes)))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SetnxLockProperties.class).getRedlock().getNodes()).hasSize(3);
				// Only these names: the build's own SETNX_LOCK_* variables may be warned
				// of.
				assertThat(output).doesNotContain("setnx.lock.redlock.nodes[")
					.doesNotContain("setnx.lock.redlock.nodes.")
					.doesNotContain("did you mean setnx.lock.redlock.nodes");
			});
	}

	@Test
	void aDurationWithoutAUnitIsWarnedOfAsMilliseconds(CapturedOutput output) {
		runner()
			.withPropertyValues("setnx.lock.wait-time=1234", "setnx.lock.locks[Unitless.run].wait-time=4321",
					"setnx.lock.locks[Zero.run].wait-time=0")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SetnxLockProperties.class).getWaitTime()).hasMillis(1234);
				assertThat(output)
					.contains("setnx.lock.wait-time is 1234 without a unit, which Spring Boot reads as milliseconds"
							+ " (1234ms); write the unit, such as 1234s or 1234ms")
					.contains("setnx.lock.locks[Unitless.run].wait-time is 4321 without a unit")
					.doesNotContain("setnx.lock.locks[Zero.run].wait-time is 0");
			});
	}

	@Test
	void aDurationWithoutAUnitFromYamlIsANumberAndWarnedOf(CapturedOutput output) {
		// YAML gives 'lease-time: 5' as an Integer, not as text.
		runner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("yaml", Map.of("setnx.lock.lease-time", 5))))
			.run((context) -> {
				assertThat(context.getBean(SetnxLockProperties.class).getLeaseTime()).hasMillis(5);
				assertThat(output)
					.contains("setnx.lock.lease-time is 5 without a unit, which Spring Boot reads as milliseconds"
							+ " (5ms); write the unit, such as 5s or 5ms")
					.contains("setnx.lock.lease-time is 5ms: a lease under 1s can end while its holder still works");
			});
	}

	@Test
	void aDurationThatAPlaceholderGivesWithoutAUnitIsWarnedOf(CapturedOutput output) {
		runner().withPropertyValues("placeholder.wait=2468", "setnx.lock.wait-time=${placeholder.wait}")
			.run((context) -> assertThat(output).contains("setnx.lock.wait-time is 2468 without a unit"));
	}

	@Test
	void aLeaseUnderASecondIsWarnedOf(CapturedOutput output) {
		runner().withPropertyValues("setnx.lock.locks[Short.run].lease-time=900ms").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output)
				.contains("setnx.lock.locks[Short.run].lease-time is 900ms: a lease under 1s can end"
						+ " while its holder still works (a garbage collection pause or a slow network is enough), and"
						+ " another client then takes the lock; leases are usually seconds, such as 30s")
				.doesNotContain("without a unit, which Spring Boot reads as milliseconds (900ms)");
		});
	}

}
