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

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Warns, once every singleton exists, about {@code setnx.lock} settings that do not do
 * what they seem to: a name that binds to no property (a typo, with the known name it is
 * closest to), a per-lock name with dots written without brackets, a duration written as
 * a bare number (Spring Boot reads it as milliseconds, so {@code lease-time: 5} is 5ms),
 * and a lease under a second. Names and raw values come from the Environment's property
 * sources, where only the first source that has a name counts, as in binding; the leases
 * come from the bound {@link SetnxLockProperties}.
 *
 * @author setnx-lock authors
 */
final class SetnxLockPropertiesCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(SetnxLockPropertiesCheck.class);

	private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

	private static final Pattern ZERO = Pattern.compile("[+-]?0+");

	private static final Duration SHORT_LEASE = Duration.ofSeconds(1);

	private final SetnxLockProperties properties;

	private final Environment environment;

	SetnxLockPropertiesCheck(SetnxLockProperties properties, Environment environment) {
		this.properties = properties;
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<ConfigurationPropertyName> seen = new HashSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				ConfigurationPropertySource variables = (source
					.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) ? source : null;
				iterable.filter(SetnxLockPropertyNames.PREFIX::isAncestorOf).forEach((name) -> {
					if (seen.add(name)) {
						check(name, source.getConfigurationProperty(name), variables);
					}
				});
			}
		}
		warnIfShort("setnx.lock.lease-time", this.properties.getLeaseTime());
		this.properties.getLocks()
			.forEach((name, lock) -> warnIfShort("setnx.lock.locks[" + name + "].lease-time", lock.getLeaseTime()));
	}

	/**
	 * Check one name.
	 * @param variables the source of environment variables the name came from, or
	 * {@code null}
	 */
	private void check(ConfigurationPropertyName name, ConfigurationProperty property,
			ConfigurationPropertySource variables) {
		String known = SetnxLockPropertyNames.propertyOf(name);
		if (known == null && variables != null) {
			known = SetnxLockPropertyNames.propertyOfEnvironmentVariable(name, variables);
		}
		if (known == null) {
			if (!SetnxLockPropertyNames.isGroup(name)) {
				logger.warn(PropertyNameSuggestions.unbound(name) + from(property));
			}
		}
		else if (SetnxLockPropertyNames.types().get(known) == Duration.class && property != null) {
			String value = rawText(property.getValue());
			if (value != null && BARE_NUMBER.matcher(value).matches() && !ZERO.matcher(value).matches()) {
				logger.warn(name + " is " + value + " without a unit, which Spring Boot reads as milliseconds (" + value
						+ "ms); write the unit, such as " + value + "s or " + value + "ms" + from(property));
			}
		}
	}

	private String rawText(Object value) {
		if (value instanceof Number) {
			return value.toString();
		}
		if (value instanceof CharSequence text) {
			return this.environment.resolvePlaceholders(text.toString()).trim();
		}
		return null;
	}

	private static String from(ConfigurationProperty property) {
		return (property != null && property.getOrigin() != null) ? " (" + property.getOrigin() + ")" : "";
	}

	private static void warnIfShort(String property, Duration lease) {
		if (lease != null && lease.compareTo(SHORT_LEASE) < 0) {
			logger.warn(property + " is " + lease.toMillis() + "ms: a lease under 1s can end while its holder"
					+ " still works (a garbage collection pause or a slow network is enough), and another client"
					+ " then takes the lock; leases are usually seconds, such as 30s");
		}
	}

}
