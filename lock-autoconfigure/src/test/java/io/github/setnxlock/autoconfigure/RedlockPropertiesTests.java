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

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.SetnxLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settings of {@code setnx.lock.redlock}: which forms select Redlock, and which fail
 * start-up naming the property, without showing a node's credentials. Nothing here needs
 * a Redis: the registry does not connect at start-up.
 *
 * @author setnx-lock authors
 */
class RedlockPropertiesTests {

	private static final String THREE = "redis://127.0.0.1:7001,redis://127.0.0.1:7002,redis://127.0.0.1:7003";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class));

	@Test
	void indexedNodesSelectRedlockAndNameEachNodeByHostAndPort() {
		this.runner
			.withPropertyValues("setnx.lock.redlock.nodes[0]=redis://user:secret@127.0.0.1:7001",
					"setnx.lock.redlock.nodes[1]=rediss://127.0.0.1:7002/3",
					"setnx.lock.redlock.nodes[2]=redis://127.0.0.1:7003?timeout=1s")
			.run((context) -> {
				assertThat(context).hasSingleBean(SetnxLockRegistry.class);
				String described = context.getBean(LockRegistry.class).toString();
				assertThat(described).contains("127.0.0.1:7001", "127.0.0.1:7002/3", "127.0.0.1:7003")
					.doesNotContain("secret");
			});
	}

	@Test
	void withoutNodesTheRegistryRunsOnTheSpringDataRedisConnection() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(SetnxLockRegistry.class);
			assertThat(context).doesNotHaveBean(RedlockConnections.class);
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
											setnx.lock.redlock.nodes=redis://127.0.0.1:7001,redis://127.0.0.1:7002 | setnx.lock.redlock.nodes | at least 3
											setnx.lock.redlock.nodes=redis://a:1,redis://b:2,redis://a:1 | setnx.lock.redlock.nodes[2] | [0] is named again
									setnx.lock.redlock.nodes=redis://h:1/1,redis://H:1/2,redis://h:3 | setnx.lock.redlock.nodes[1] | [0] is named again
							setnx.lock.redlock.nodes[0]=redis://u:se/cret@h:1;setnx.lock.redlock.nodes[1]=redis://h:2;setnx.lock.redlock.nodes[2]=redis://h:3 | setnx.lock.redlock.nodes[0] | Not a Redis URL
							setnx.lock.redlock.nodes[0]=redis://h:1;setnx.lock.redlock.nodes[1]=redis://u:sec@ret@h:2;setnx.lock.redlock.nodes[2]=redis://h:3 | setnx.lock.redlock.nodes[1] | Not a Redis URL
											setnx.lock.redlock.nodes[0]=redis://u:secret@h:1;setnx.lock.redlock.nodes[1]=http://u:secret@h:2;setnx.lock.redlock.nodes[2]=redis://h:3 | setnx.lock.redlock.nodes[1] | scheme was 'http'
											setnx.lock.redlock.nodes[0]=redis://u:secret@h:1;setnx.lock.redlock.nodes[1]=redis://u:secret@h:notaport;setnx.lock.redlock.nodes[2]=redis://h:3 | setnx.lock.redlock.nodes[1] | Not a Redis URL
											setnx.lock.protocol=timestamp | setnx.lock.protocol | token protocol only
											setnx.lock.replication-guard.replicas=1 | setnx.lock.replication-guard.replicas | does not apply
											setnx.lock.redlock.node-timeout=10s | setnx.lock.redlock.node-timeout | a third of setnx.lock.lease-time
											setnx.lock.redlock.node-timeout=-1ms | setnx.lock.redlock.node-timeout | at least 1ms
					setnx.lock.redlock.restart-delay=-1s | setnx.lock.redlock.restart-delay | 0 (no check) or at least 1ms
											""")
	void settingsThatMakeNoRedlockFailStartUpNamingTheProperty(String properties, String property, String reason) {
		ApplicationContextRunner runner = properties.startsWith("setnx.lock.redlock.nodes")
				? this.runner.withPropertyValues(properties.split(";"))
				: this.runner.withPropertyValues("setnx.lock.redlock.nodes=" + THREE, properties);
		runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("Property " + property + " with value")
				.hasStackTraceContaining(reason);
			assertThat(context.getStartupFailure()).satisfies((failure) -> {
				for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
					assertThat(String.valueOf(cause.getMessage())).doesNotContain("cret");
				}
			});
		});
	}

	@Test
	void anApplicationsOwnLockRegistryWinsAndNoNodeIsConnectedFor() {
		this.runner.withPropertyValues("setnx.lock.redlock.nodes=" + THREE)
			.withBean("ownRegistry", LockRegistry.class, NoLocks::new)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockRegistry.class);
				assertThat(context).doesNotHaveBean(SetnxLockRegistry.class);
				assertThat(context).doesNotHaveBean(RedlockConnections.class);
			});
	}

	@Test
	void withoutLettuceRedlockFailsStartUpSayingWhatToAdd() {
		this.runner.withClassLoader(new FilteredClassLoader("io.lettuce"))
			.withPropertyValues("setnx.lock.redlock.nodes=" + THREE)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("setnx.lock.redlock.nodes")
					.hasStackTraceContaining("io.lettuce:lettuce-core");
			});
	}

}
