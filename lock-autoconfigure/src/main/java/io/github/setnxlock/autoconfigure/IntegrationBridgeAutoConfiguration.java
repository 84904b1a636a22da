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
import io.github.setnxlock.integration.SetnxIntegrationLockRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures Spring Integration's {@code LockRegistry} over setnx-lock's
 * {@link LockRegistry} when Spring Integration is on the classpath and the application
 * has no lock registry of Spring Integration's own, so that
 * {@code LockRegistryLeaderInitiator} and every component that takes one lock through
 * setnx-lock, on the same keys as the setnx-lock registry (see
 * {@link SetnxIntegrationLockRegistry}).
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass(org.springframework.integration.support.locks.LockRegistry.class)
@ConditionalOnSingleCandidate(LockRegistry.class)
public final class IntegrationBridgeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(org.springframework.integration.support.locks.LockRegistry.class)
	SetnxIntegrationLockRegistry setnxIntegrationLockRegistry(LockRegistry registry) {
		return new SetnxIntegrationLockRegistry(registry);
	}

}
