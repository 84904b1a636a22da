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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.github.setnxlock.redis.operator.LockOperations;

/**
 * Auto-configures the actuator {@code locks} endpoint when it is available (exposed, and
 * its access not {@code none}). Spring Boot's endpoint access governs its force-release
 * (delete) operation: the endpoint is read-only by default, and offers the operation with
 * {@code management.endpoint.locks.access=unrestricted}. A global default that makes the
 * endpoint unrestricted offers it too, with a warning at start-up.
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = SetnxLockAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(LockOperations.class)
@ConditionalOnAvailableEndpoint(endpoint = LocksEndpoint.class)
public final class LocksEndpointAutoConfiguration {

	private static final Log logger = LogFactory.getLog(LocksEndpointAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	LocksEndpoint setnxLocksEndpoint(LockOperations operations, ObjectProvider<EndpointAccessResolver> accessResolver,
			Environment environment, ObjectProvider<SetnxLockProperties> properties) {
		accessResolver.ifAvailable((resolver) -> warnIfUnrestrictedByDefault(resolver, environment));
		int scanLimit = properties.getIfAvailable(SetnxLockProperties::new).getEndpoint().getScanLimit();
		if (scanLimit < 1) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.endpoint.scan-limit", scanLimit,
					"At least 1.");
		}
		return new LocksEndpoint(operations, scanLimit);
	}

	/**
	 * Tell of a force-release operation that the application did not ask for by name: a
	 * global default or Boot's older {@code enabled} switch can make the endpoint
	 * unrestricted, and with it able to release any lock.
	 */
	private static void warnIfUnrestrictedByDefault(EndpointAccessResolver resolver, Environment environment) {
		Access access = resolver.accessFor(EndpointId.of("locks"), Access.READ_ONLY);
		if (access == Access.UNRESTRICTED && !environment.containsProperty("management.endpoint.locks.access")) {
			logger.warn("The locks endpoint offers its force-release operation, which releases any lock whoever"
					+ " holds it, because the access of actuator endpoints is unrestricted by default here; set"
					+ " management.endpoint.locks.access=read-only to keep it read-only, or =unrestricted to say"
					+ " this is meant");
		}
	}

}
