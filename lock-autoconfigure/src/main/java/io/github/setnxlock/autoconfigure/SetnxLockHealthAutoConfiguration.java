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

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.setnxlock.redis.operator.LockOperations;

/**
 * Auto-configures the {@link SetnxLockHealthIndicator} ({@code setnxLock} in the health
 * endpoint) when Spring Boot's health support is there; Boot's
 * {@code management.health.setnxlock.enabled=false} turns it off.
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(LockOperations.class)
@ConditionalOnEnabledHealthIndicator("setnxlock")
public final class SetnxLockHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "setnxLockHealthIndicator")
	SetnxLockHealthIndicator setnxLockHealthIndicator(LockOperations operations) {
		return new SetnxLockHealthIndicator(operations);
	}

}
