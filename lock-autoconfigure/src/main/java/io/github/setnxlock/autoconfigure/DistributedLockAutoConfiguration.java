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

import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLockAdvisor;
import io.github.setnxlock.annotation.LockTimings;

/**
 * Auto-configures the advice that runs
 * {@link io.github.setnxlock.annotation.DistributedLock} methods under their locks. The
 * advisor has the infrastructure role, so the auto-proxy creator that Spring Boot (or
 * {@code @EnableTransactionManagement}) registers applies it; one is registered here if
 * there is none. It looks up the registry on the first locked call, so it does not make
 * the registry and the Redis connection factory be created before the other beans.
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = { "setnx.lock.enabled", "setnx.lock.aspect.enabled" }, matchIfMissing = true)
@ConditionalOnSingleCandidate(LockRegistry.class)
@ConditionalOnBean(LockTimings.class)
@Import(DistributedLockAutoConfiguration.AutoProxyCreatorRegistrar.class)
public final class DistributedLockAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor setnxLockDistributedLockAdvisor(ObjectProvider<LockRegistry> registry,
			ObjectProvider<LockTimings> timings, Environment environment) {
		DistributedLockAdvisor advisor = new DistributedLockAdvisor(registry::getObject, timings::getObject);
		// Bound here rather than injected: advisors are created before most beans, and
		// the properties bean would miss the post-processors that come later.
		advisor.setOrder(Binder.get(environment)
			.bind("setnx.lock.aspect.order", Integer.class)
			.orElse(DistributedLockAdvisor.DEFAULT_ORDER));
		return advisor;
	}

	@Bean
	static LockNamesCheck setnxLockNamesCheck(ObjectProvider<DistributedLockAdvisor> advisor, Environment environment) {
		return new LockNamesCheck(advisor, environment);
	}

	/**
	 * Warns, once every singleton exists, about {@code setnx.lock.locks} settings of a
	 * name that no annotated method of a singleton bean uses. Names that bind to nothing
	 * (such as a name with dots written without brackets) are
	 * {@link SetnxLockPropertiesCheck}'s to report.
	 */
	static final class LockNamesCheck implements SmartInitializingSingleton {

		private static final Log logger = LogFactory.getLog(LockNamesCheck.class);

		private static final ConfigurationPropertyName LOCKS = SetnxLockPropertyNames.LOCKS;

		private final ObjectProvider<DistributedLockAdvisor> advisor;

		private final Environment environment;

		LockNamesCheck(ObjectProvider<DistributedLockAdvisor> advisor, Environment environment) {
			this.advisor = advisor;
			this.environment = environment;
		}

		@Override
		public void afterSingletonsInstantiated() {
			DistributedLockAdvisor lockAdvisor = this.advisor.getIfUnique();
			if (lockAdvisor == null) {
				return;
			}
			Set<String> known = lockAdvisor.lockNames();
			Set<String> reported = new TreeSet<>();
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				if (source instanceof IterableConfigurationPropertySource iterable) {
					iterable.filter(LOCKS::isAncestorOf).forEach((name) -> check(name, known, reported));
				}
			}
		}

		private void check(ConfigurationPropertyName property, Set<String> known, Set<String> reported) {
			int lockName = LOCKS.getNumberOfElements();
			if (property.getNumberOfElements() != lockName + 2) {
				return;
			}
			String name = property.getElement(lockName, Form.ORIGINAL);
			if (!known.contains(name) && reported.add(name)) {
				logger.warn("setnx.lock.locks[" + name + "] names no @DistributedLock method of a singleton bean"
						+ " (lock names: " + known + ")");
			}
		}

	}

	/**
	 * Registers Spring's infrastructure auto-proxy creator unless a stronger one is
	 * there, as {@code @EnableTransactionManagement} does.
	 */
	static class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
