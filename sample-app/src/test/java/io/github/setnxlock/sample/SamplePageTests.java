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

package io.github.setnxlock.sample;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's page at {@code /} in headless Chromium: opened with {@code ?run=all} it
 * runs the three races through the application's endpoints and shows their results, and
 * its timeline shows a lock held in Redis with its holder. Runs where Chromium is
 * installed (Debian's {@code chromium} package, or {@code -Dsample.test.chromium=/path});
 * skipped with a warning elsewhere. {@code -Dsample.test.screenshot=/path.png} also saves
 * a screenshot of the page (the README's).
 *
 * @author setnx-lock authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.jobs.report-period=1h")
class SamplePageTests {

	private static final String MISSING = "Chromium not found (chromium or chromium-browser on the PATH, or"
			+ " -Dsample.test.chromium): the sample page's browser test is skipped";

	@LocalServerPort
	private int port;

	@Autowired
	private LockRegistry locks;

	private Path chromium;

	@BeforeAll
	static void sayWhenSkipped() {
		if (find() == null) {
			// Surefire shows a skipped test's reason only in its reports.
			LogFactory.getLog(SamplePageTests.class).warn(MISSING);
		}
	}

	@BeforeEach
	void findChromium() {
		this.chromium = find();
		Assumptions.assumeTrue(this.chromium != null, MISSING);
	}

	@Test
	void thePageRunsTheRacesAndItsTimelineShowsWhoHoldsALock(@TempDir Path profile) throws Exception {
		LeasedLock held = this.locks.obtain("page:held", "page");
		held.lock();
		String dom;
		try {
			dom = chromium(profile, "--dump-dom", "http://localhost:" + this.port + "/?run=all");
			String screenshot = System.getProperty("sample.test.screenshot");
			if (screenshot != null && !screenshot.isBlank()) {
				chromium(profile, "--screenshot=" + Path.of(screenshot).toAbsolutePath(), "--window-size=1140,760",
						"http://localhost:" + this.port + "/?run=all");
			}
		}
		finally {
			held.unlock();
		}
		assertThat(dom).contains("data-finished=\"true\"");
		assertThat(dom).containsPattern("class=\"result (good|bad)\" id=\"unlocked-deposits\""
				+ " data-result=\"(good|bad)\">\\d+ of 200 deposits counted");
		assertThat(dom).contains("class=\"result good\" id=\"locked-deposits\" data-result=\"good\">"
				+ "200 of 200 deposits counted, none lost");
		assertThat(dom).containsPattern("class=\"result good\" id=\"stock-reservations\" data-result=\"good\">"
				+ "\\d+ reserved, \\d+ left: never oversold");
		assertThat(dom).contains("class=\"hold\" data-key=\"page:held\"");
		assertThat(dom).contains("<title>setnx-lock-sample@");
	}

	private String chromium(Path profile, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.chromium.toString(), "--headless", "--no-sandbox",
				"--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
				// Long enough in the page's virtual time for the races, which pause it
				// while their calls are answered, and several samples of the timeline.
				"--virtual-time-budget=30000"));
		command.addAll(List.of(arguments));
		Path output = Files.createTempFile(profile, "chromium", ".out");
		Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
		boolean ended = process.waitFor(2, TimeUnit.MINUTES);
		if (!ended) {
			process.destroyForcibly();
		}
		assertThat(ended).as("Chromium ended").isTrue();
		assertThat(process.exitValue()).as("Chromium's exit value").isZero();
		return Files.readString(output, StandardCharsets.UTF_8);
	}

	private static Path find() {
		String named = System.getProperty("sample.test.chromium");
		Stream<Path> candidates = (named != null && !named.isBlank()) ? Stream.of(Path.of(named)) : Stream
			.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.filter((directory) -> !directory.isBlank())
			.flatMap((directory) -> Stream.of(Path.of(directory, "chromium"), Path.of(directory, "chromium-browser")));
		return candidates.filter(Files::isExecutable).findFirst().orElse(null);
	}

}
