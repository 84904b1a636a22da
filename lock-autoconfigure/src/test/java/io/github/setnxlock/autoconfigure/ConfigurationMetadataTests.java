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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata that the configuration processor writes and the reference table of
 * {@code docs/configuration.md} (its {@code setnx.lock.*} section) describe the same
 * properties, with the same defaults, and every property has a description.
 *
 * @author setnx-lock authors
 */
class ConfigurationMetadataTests {

	private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(setnx\\.lock\\.[^`]+)` \\| *`?([^`|]*?)`? *\\|",
			Pattern.MULTILINE);

	private static Map<String, ConfigurationMetadataProperty> metadata;

	private static Map<String, String> documented;

	@BeforeAll
	static void read() throws IOException {
		ConfigurationMetadataRepository repository;
		try (InputStream json = ConfigurationMetadataTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(json).as("metadata written by the configuration processor").isNotNull();
			repository = ConfigurationMetadataRepositoryJsonBuilder.create(json).build();
		}
		// Only our own: the configuration processor also describes the endpoint's
		// management.endpoint.locks.* properties, which are Spring Boot's.
		metadata = new LinkedHashMap<>();
		repository.getAllProperties().forEach((name, property) -> {
			if (name.startsWith("setnx.lock.")) {
				metadata.put(name, property);
			}
		});
		documented = new LinkedHashMap<>();
		String page = Files.readString(Path.of("..", "docs", "configuration.md"), StandardCharsets.UTF_8);
		int reference = page.indexOf("\n## `setnx.lock.*`");
		assertThat(reference).as("the setnx.lock.* table of docs/configuration.md").isNotNegative();
		int next = page.indexOf("\n## ", reference + 1);
		Matcher row = TABLE_ROW.matcher(page.substring(reference, (next < 0) ? page.length() : next));
		while (row.find()) {
			documented.put(row.group(1), row.group(2).trim());
		}
	}

	@Test
	void everyPropertyIsDescribed() {
		assertThat(metadata).isNotEmpty();
		assertThat(metadata.values())
			.allSatisfy((property) -> assertThat(property.getDescription()).as(property.getId())
				.isNotBlank()
				.doesNotStartWith("The "));
	}

	@Test
	void theReferenceTableListsEveryPropertyAndNoOther() {
		assertThat(documented.keySet().stream().map(ConfigurationMetadataTests::metadataName).distinct())
			.containsExactlyInAnyOrderElementsOf(metadata.keySet());
	}

	@Test
	void theReferenceTableShowsTheDefaults() {
		documented.forEach((name, shown) -> {
			Object declared = metadata.get(metadataName(name)).getDefaultValue();
			assertThat(shown).as(name).isEqualTo((declared != null) ? declared.toString() : "");
		});
	}

	/**
	 * Map a documented name to the metadata's: the per-lock rows
	 * ({@code setnx.lock.locks[<name>].wait-time}) are entries of the map property.
	 */
	private static String metadataName(String documentedName) {
		return documentedName.startsWith("setnx.lock.locks[") ? "setnx.lock.locks" : documentedName;
	}

}
