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
package io.github.setnxlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * lock-core's rooms depend on each other one way only, as {@code docs/architecture.md}
 * draws them (the public API, in lock-api, can depend on nothing of lock-core's): the
 * Redis gateway only on the API; the protocols on the gateway; the engine on the
 * protocols and the gateway; the operator API on the engine and the gateway; the registry
 * on all of them; the annotation support on the API alone; the Reactor adapter on the API
 * and the annotation support's exception; the ShedLock and Spring Integration bridges on
 * the API alone; the in-memory registry on the engine, which it runs on a protocol of its
 * own. Read from the sources' imports and fully qualified names, so a new arrow the wrong
 * way fails here.
 *
 * @author setnx-lock authors
 */
class PackageArrowsTests {

	private static final Path SOURCES = Path.of("src/main/java");

	private static final String ROOT = "io.github.setnxlock";

	/** What each package may use of ours, besides itself and the public API. */
	private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(Map.entry(ROOT + ".observation", Set.of()),
			Map.entry(ROOT + ".annotation", Set.of()), Map.entry(ROOT + ".reactor", Set.of(ROOT + ".annotation")),
			Map.entry(ROOT + ".shedlock", Set.of()), Map.entry(ROOT + ".integration", Set.of()),
			Map.entry(ROOT + ".memory",
					Set.of(ROOT + ".redis.engine", ROOT + ".redis.protocol", ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis.gateway", Set.of()),
			Map.entry(ROOT + ".redis.protocol", Set.of(ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis.token", Set.of(ROOT + ".redis.protocol", ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis.timestamp", Set.of(ROOT + ".redis.protocol", ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis.redlock",
					Set.of(ROOT + ".redis.token", ROOT + ".redis.protocol", ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis.engine",
					Set.of(ROOT + ".redis.protocol", ROOT + ".redis.gateway", ROOT + ".observation")),
			Map.entry(ROOT + ".redis.operator",
					Set.of(ROOT + ".redis.engine", ROOT + ".redis.protocol", ROOT + ".redis.gateway")),
			Map.entry(ROOT + ".redis",
					Set.of(ROOT + ".redis.engine", ROOT + ".redis.protocol", ROOT + ".redis.token",
							ROOT + ".redis.timestamp", ROOT + ".redis.redlock", ROOT + ".redis.gateway",
							ROOT + ".redis.operator", ROOT + ".observation")));

	private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.github\\.setnxlock(?:\\.[a-z]+)*)\\.[A-Z]");

	@Test
	void everyPackageUsesOnlyThePackagesItMay() throws IOException {
		List<String> wrongWay = new ArrayList<>();
		try (Stream<Path> files = Files.walk(SOURCES)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String source = Files.readString(file);
				String pkg = packageOf(source);
				assertThat(ALLOWED).as("the rooms of lock-core, which " + file + " is in").containsKey(pkg);
				Matcher reference = REFERENCE.matcher(source.substring(source.indexOf(';') + 1));
				while (reference.find()) {
					String used = reference.group(1);
					if (!used.equals(pkg) && !used.equals(ROOT) && !ALLOWED.get(pkg).contains(used)) {
						wrongWay.add(file + " (" + pkg + ") uses " + used);
					}
				}
			}
		}
		assertThat(wrongWay).isEmpty();
	}

	@Test
	void theCheckSeesAnArrowTheWrongWay() {
		String source = "package io.github.setnxlock.redis.gateway;\nimport io.github.setnxlock.redis.engine.Hold;\n";
		Matcher reference = REFERENCE.matcher(source.substring(source.indexOf(';') + 1));
		assertThat(reference.find()).isTrue();
		assertThat(ALLOWED.get(packageOf(source))).doesNotContain(reference.group(1));
	}

	private static String packageOf(String source) {
		Matcher declaration = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(source);
		assertThat(declaration.find()).as("a package declaration").isTrue();
		return declaration.group(1);
	}

}
