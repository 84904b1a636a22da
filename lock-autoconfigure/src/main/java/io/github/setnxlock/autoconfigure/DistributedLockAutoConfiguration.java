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

import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.annotation.DistributedLockAdvisor;
import io.github.setnxlock.annotation.LockTimings;

/**
 * Auto-configures the advice that runs {@link DistributedLock} methods under their locks.
 * The advisor has the infrastructure role, so the auto-proxy creator that Spring Boot (or
 * {@code @EnableTransactionManagement}) registers applies it; one is registered here if
 * there is none. It looks up the registry on the first locked call, so it does not make
 * the registry and the Redis connection factory be created before the other beans.
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass({ Advisor.class, DistributedLock.class })
@ConditionalOnBooleanProperty(name = { "setnx.lock.enabled", "setnx.lock.aspect.enabled" }, matchIfMissing = true)
@ConditionalOnBean({ LockRegistry.class, LockTimings.class })
@Import(DistributedLockAutoConfiguration.AutoProxyCreatorRegistrar.class)
public final class DistributedLockAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor distributedLockAdvisor(ObjectProvider<LockRegistry> registry,
			ObjectProvider<LockTimings> timings, ObjectProvider<SetnxLockProperties> properties) {
		DistributedLockAdvisor advisor = new DistributedLockAdvisor(registry::getObject, timings::getObject);
		SetnxLockProperties settings = properties.getIfAvailable();
		if (settings != null) {
			advisor.setOrder(settings.getAspect().getOrder());
		}
		return advisor;
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
