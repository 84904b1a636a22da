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

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.setnxlock.redis.operator.LockOperations;

/**
 * Auto-configures the actuator {@code locks} endpoint when it is available (exposed, and
 * its access not {@code none}). Spring Boot's endpoint access governs its force-release
 * (delete) operation: the endpoint is read-only by default, and offers the operation with
 * {@code management.endpoint.locks.access=unrestricted}. The deprecated
 * {@code setnx.lock.endpoint.force-release.enabled=true} still offers it (see
 * {@link ForceReleaseAccessEnvironmentPostProcessor}).
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(LockOperations.class)
@ConditionalOnAvailableEndpoint(endpoint = LocksEndpoint.class)
public final class LocksEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LocksEndpoint locksEndpoint(LockOperations operations) {
		return new LocksEndpoint(operations);
	}

}
