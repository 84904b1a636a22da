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

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.StreamUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property that the auto-configuration reads is in the IDE metadata (what the
 * configuration processor writes, merged with the additional metadata) with a
 * description: the properties of {@link SetnxLockProperties}, found by reflection, and
 * the names in the conditions of the auto-configuration classes, found from their
 * annotations, so a new property or condition cannot be left out unnoticed.
 *
 * @author setnx-lock authors
 */
class PropertiesReadAreDescribedTests {

	private static Map<String, ConfigurationMetadataProperty> metadata;

	@BeforeAll
	static void readMetadata() throws IOException {
		try (InputStream json = PropertiesReadAreDescribedTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(json).as("metadata written by the configuration processor").isNotNull();
			metadata = ConfigurationMetadataRepositoryJsonBuilder.create(json).build().getAllProperties();
		}
	}

	@Test
	void everyPropertyOfTheConfigurationPropertiesIsDescribed() {
		Set<String> properties = SetnxLockPropertyNames.types().keySet();
		assertThat(properties).contains("setnx.lock.lease-time", "setnx.lock.renewal.max-hold",
				"setnx.lock.locks[*].lease-time");
		for (String property : properties) {
			if (property.contains(SetnxLockPropertyNames.ANY_LOCK)) {
				assertPerLockEntryIsDescribed(property);
			}
			else {
				assertDescribed(property);
			}
		}
	}

	@Test
	void everyPropertyInAConditionIsDescribed() throws Exception {
		Set<String> read = new TreeSet<>();
		for (Class<?> autoConfiguration : autoConfigurations()) {
			collectConditionProperties(autoConfiguration, read);
		}
		assertThat(read).contains("setnx.lock.enabled", "management.health.setnxlock.enabled",
				"management.endpoint.locks.access");
		read.forEach(PropertiesReadAreDescribedTests::assertDescribed);
	}

	@Test
	void theEndpointsAccessIsDescribedWithItsReadOnlyDefault() {
		assertDescribed("management.endpoint.locks.access");
		assertThat(metadata.get("management.endpoint.locks.access").getDefaultValue()).isEqualTo("read_only");
	}

	private static void assertDescribed(String property) {
		assertThat(metadata).as("metadata of " + property).containsKey(property);
		assertThat(metadata.get(property).getDescription()).as("description of " + property).isNotBlank();
	}

	/**
	 * A per-lock entry is a property of the map's value type, which the metadata gives
	 * for IDEs to offer; the map's description names each entry.
	 */
	private static void assertPerLockEntryIsDescribed(String property) {
		String map = property.substring(0, property.indexOf(SetnxLockPropertyNames.ANY_LOCK));
		assertDescribed(map);
		assertThat(metadata.get(map).getType()).contains(LockProperties.class.getName());
		String entry = ConfigurationPropertyName.of(property).getLastElement(ConfigurationPropertyName.Form.DASHED);
		assertThat(metadata.get(map).getDescription()).as("description of " + map).contains("'" + entry + "'");
	}

	private static Set<Class<?>> autoConfigurations() throws IOException, ClassNotFoundException {
		Set<Class<?>> classes = new LinkedHashSet<>();
		try (InputStream imports = PropertiesReadAreDescribedTests.class
			.getResourceAsStream("/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
			assertThat(imports).isNotNull();
			for (String line : StreamUtils.copyToString(imports, StandardCharsets.UTF_8).split("\n")) {
				if (!line.isBlank() && !line.startsWith("#")) {
					classes.add(Class.forName(line.trim()));
				}
			}
		}
		assertThat(classes).contains(SetnxLockAutoConfiguration.class);
		return classes;
	}

	private static void collectConditionProperties(Class<?> type, Set<String> read) {
		collectConditionProperties((AnnotatedElement) type, read);
		for (Method method : type.getDeclaredMethods()) {
			collectConditionProperties(method, read);
		}
		for (Class<?> nested : type.getDeclaredClasses()) {
			collectConditionProperties(nested, read);
		}
	}

	private static void collectConditionProperties(AnnotatedElement element, Set<String> read) {
		MergedAnnotations annotations = MergedAnnotations.from(element);
		annotations.stream(ConditionalOnBooleanProperty.class).forEach((condition) -> names(condition, read));
		annotations.stream(ConditionalOnProperty.class).forEach((condition) -> names(condition, read));
		annotations.stream(ConditionalOnEnabledHealthIndicator.class)
			.forEach((condition) -> read.add("management.health." + condition.getString("value") + ".enabled"));
		annotations.stream(ConditionalOnAvailableEndpoint.class).forEach((condition) -> {
			Class<?> endpoint = condition.getClass("endpoint");
			String id = MergedAnnotations.from(endpoint, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
				.get(Endpoint.class)
				.getString("id");
			read.add("management.endpoint." + id + ".access");
		});
	}

	private static void names(MergedAnnotation<?> condition, Set<String> read) {
		String prefix = condition.getString("prefix");
		String[] names = condition.getStringArray("name");
		if (names.length == 0) {
			names = condition.getStringArray("value");
		}
		for (String name : names) {
			read.add(prefix.isEmpty() ? name : prefix.replaceAll("\\.$", "") + "." + name);
		}
	}

}
