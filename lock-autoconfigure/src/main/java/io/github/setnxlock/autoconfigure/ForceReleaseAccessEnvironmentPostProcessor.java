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
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps the deprecated {@code setnx.lock.endpoint.force-release.enabled=true} working in
 * Spring Boot's endpoint access model: it becomes
 * {@code management.endpoint.locks.access=unrestricted}, unless the application decides
 * the endpoint's access itself ({@link #ACCESS_SETTINGS}: then its choice stands), and
 * {@code management.endpoints.access.max-permitted} still caps it. The start-up warning
 * that the property is deprecated is {@link SetnxLockPropertiesCheck}'s.
 *
 * @author setnx-lock authors
 */
final class ForceReleaseAccessEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String FORCE_RELEASE_PROPERTY = "setnx.lock.endpoint.force-release.enabled";

	static final String ACCESS_PROPERTY = "management.endpoint.locks.access";

	static final String PROPERTY_SOURCE_NAME = "setnxLockDeprecatedForceRelease";

	/**
	 * Settings of the application's own that decide the endpoint's access. Spring Boot
	 * reads the endpoint's own access before the global default whatever their property
	 * sources, and refuses {@code access} beside {@code enabled}: with any of these set,
	 * the old property adds nothing and the application's choice stands.
	 */
	static final List<String> ACCESS_SETTINGS = List.of(ACCESS_PROPERTY, "management.endpoint.locks.enabled",
			"management.endpoints.access.default", "management.endpoints.enabled-by-default");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Binder binder = Binder.get(environment);
		if (binder.bind(FORCE_RELEASE_PROPERTY, Boolean.class).orElse(false)
				&& ACCESS_SETTINGS.stream().noneMatch((setting) -> binder.bind(setting, String.class).isBound())) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(ACCESS_PROPERTY, "unrestricted")));
		}
	}

}
