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

import net.javacrumbs.shedlock.core.LockProvider;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.shedlock.SetnxLockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures ShedLock's {@link LockProvider} over setnx-lock's {@link LockRegistry}
 * when ShedLock is on the classpath and the application has no provider of its own, so
 * {@code @SchedulerLock} jobs lock through setnx-lock by adding the starter. Locks live
 * under the key part {@value SetnxLockProvider#DEFAULT_KEY_PART} of the registry's prefix
 * (see {@link SetnxLockProvider}); an application that wants another part defines the
 * bean itself.
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass(LockProvider.class)
@ConditionalOnSingleCandidate(LockRegistry.class)
public final class ShedLockBridgeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockProvider.class)
	SetnxLockProvider setnxLockProvider(LockRegistry registry) {
		return new SetnxLockProvider(registry);
	}

}
