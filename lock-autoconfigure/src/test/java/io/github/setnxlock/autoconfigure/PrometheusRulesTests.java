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

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitoring kit's Prometheus rules through {@code promtool}: the rule file is valid,
 * and its unit tests ({@code setnx-lock-rules.test.yml}) pass. Skipped, saying so, where
 * promtool is not installed (Debian's {@code prometheus} package has it, CI does not
 * install it); {@code -Dsetnx.lock.test.promtool=/path/to/promtool} names another one.
 *
 * @author setnx-lock authors
 */
class PrometheusRulesTests {

	private static final Path TESTS = MonitoringKitTests.KIT.resolve("prometheus/setnx-lock-rules.test.yml");

	private static final String MISSING = "promtool not found (on the PATH, or where -Dsetnx.lock.test.promtool "
			+ "names it): the Prometheus rules of monitoring/ are not checked; Debian's prometheus package has it";

	private Path promtool;

	@BeforeAll
	static void sayWhenSkipped() {
		if (find() == null) {
			// Surefire shows a skipped test's reason only in its reports.
			LogFactory.getLog(PrometheusRulesTests.class).warn(MISSING);
		}
	}

	@BeforeEach
	void findPromtool() {
		this.promtool = find();
		Assumptions.assumeTrue(this.promtool != null, MISSING);
	}

	private static Path find() {
		String named = System.getProperty("setnx.lock.test.promtool");
		Stream<Path> candidates = (named != null && !named.isBlank()) ? Stream.of(Path.of(named))
				: Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
					.filter((directory) -> !directory.isBlank())
					.map((directory) -> Path.of(directory, "promtool"));
		return candidates.filter(Files::isExecutable).findFirst().orElse(null);
	}

	@Test
	void theRulesAreValid() throws Exception {
		assertThat(promtool("check", "rules", MonitoringKitTests.RULES.toString())).contains("SUCCESS");
	}

	@Test
	void theRulesPassTheirUnitTests() throws Exception {
		assertThat(promtool("test", "rules", TESTS.toString())).contains("SUCCESS");
	}

	private String promtool(String... arguments) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(
				Stream.concat(Stream.of(this.promtool.toString()), Stream.of(arguments)).toList())
			.redirectErrorStream(true);
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("promtool %s%n%s", List.of(arguments), output).isZero();
		return output;
	}

}
