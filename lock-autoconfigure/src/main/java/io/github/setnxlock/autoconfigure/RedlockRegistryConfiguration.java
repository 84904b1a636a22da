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

import java.util.List;

import io.lettuce.core.resource.ClientResources;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.RedlockNode;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.operator.LockOperations;

/**
 * The lock registry on the independent masters of {@code setnx.lock.redlock.nodes}, when
 * that is set: a {@link SetnxLockRegistry} running Redlock over one Lettuce connection
 * per node (see {@link RedlockConnections}), and its operator API. The application's
 * {@code spring.data.redis} connection is then not used for locks. Settings that do not
 * make a Redlock registry (fewer than 3 nodes, the same node twice, the timestamp
 * protocol, the replication guard, a node timeout of a third of the lease or more) fail
 * start-up naming the property, and so does a missing Lettuce.
 *
 * @author setnx-lock authors
 */
@Configuration(proxyBeanMethods = false)
@Conditional(RedlockNodesCondition.Set.class)
class RedlockRegistryConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.lettuce.core.RedisClient")
	static class OnLettuce {

		@Bean
		@ConditionalOnMissingBean(LockRegistry.class)
		RedlockConnections setnxLockRedlockConnections(SetnxLockProperties properties,
				ObjectProvider<ClientResources> clientResources) {
			SetnxLockSettings settings = settings(properties);
			return new RedlockConnections(properties.getRedlock().getNodes(), settings.leaseTime(),
					clientResources.getIfUnique());
		}

		@Bean
		@ConditionalOnMissingBean(LockRegistry.class)
		SetnxLockRegistry setnxLockRegistry(RedlockConnections connections, SetnxLockProperties properties,
				ObjectProvider<LockListener> listeners, ObjectProvider<ObservationRegistry> observationRegistry,
				ObjectProvider<LockWaitObservationConvention> waitConvention,
				ObjectProvider<LockHoldObservationConvention> holdConvention, Environment environment) {
			List<RedlockNode> nodes = connections.nodes();
			SetnxLockRegistry registry = new SetnxLockRegistry(nodes,
					SetnxLockAutoConfiguration.named(settings(properties), environment),
					listeners.orderedStream().toList());
			return SetnxLockAutoConfiguration.observed(registry, observationRegistry, waitConvention, holdConvention);
		}

		/**
		 * The operator API of the Redlock registry, which reads and releases locks on
		 * every node; an application's own {@code LockRegistry} that is not a
		 * {@code SetnxLockRegistry} gets none.
		 */
		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(SetnxLockRegistry.class)
		LockOperations setnxLockOperations(SetnxLockRegistry registry) {
			return registry.operations();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("io.lettuce.core.RedisClient")
	static class WithoutLettuce {

		@Bean
		Object setnxLockRedlockNeedsLettuce(SetnxLockProperties properties) {
			throw new InvalidConfigurationPropertyValueException(RedlockConnections.NODES,
					properties.getRedlock().getNodes().size() + " nodes",
					"Redlock connects to each node with Lettuce; add io.lettuce:lettuce-core to the classpath.");
		}

	}

	/**
	 * Return the registry's settings, with what Redlock needs of them checked against the
	 * properties that set them.
	 */
	static SetnxLockSettings settings(SetnxLockProperties properties) {
		SetnxLockSettings settings = SetnxLockAutoConfiguration.settings(properties);
		List<String> nodes = properties.getRedlock().getNodes();
		if (nodes.size() < 3) {
			throw new InvalidConfigurationPropertyValueException(RedlockConnections.NODES, nodes.size() + " nodes",
					"Redlock needs at least 3 independent Redis masters (a majority of 2 survives no failure).");
		}
		if (settings.protocol() != LockProtocol.TOKEN) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.protocol", settings.protocol(),
					"Redlock runs the token protocol only: the timestamp protocol needs one clock and one key.");
		}
		if (settings.replicationGuardReplicas() > 0) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.replication-guard.replicas",
					settings.replicationGuardReplicas(),
					"Redlock nodes are independent masters, so the replication guard does not apply; set it to 0.");
		}
		if (settings.nodeTimeout().multipliedBy(3).compareTo(settings.leaseTime()) >= 0) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.redlock.node-timeout",
					settings.nodeTimeout(), "Must be less than a third of setnx.lock.lease-time ("
							+ settings.leaseTime() + "), so that a slow node cannot use up a lease.");
		}
		return settings;
	}

}
