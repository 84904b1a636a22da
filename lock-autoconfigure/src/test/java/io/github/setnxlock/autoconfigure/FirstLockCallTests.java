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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.test.RedisServerExtension;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first lock call of a freshly started application, in a JVM of its own (a JVM that
 * ran other tests has its Redis client warm already): made as soon as the context is
 * refreshed, on a free key, it takes the lock. The call waits 200 ms, less than a cold
 * client takes to connect and load the scripts; the application does that while it
 * starts, in the background.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class FirstLockCallTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@ParameterizedTest
	@ValueSource(strings = { "tryLock", "shedlock" })
	void theFirstCallOfAStartedApplicationTakesAFreeLock(String call, @TempDir Path directory) throws Exception {
		String output = run(call, directory);
		assertThat(output).as(output).containsPattern("(?m)^FIRST true \\d+$");
	}

	private static String run(String call, Path directory) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Path log = directory.resolve(call + ".log");
		Process application = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
				FirstLockCallApplication.class.getName(), Integer.toString(redis.server().port()), call)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			assertThat(application.waitFor(120, TimeUnit.SECONDS)).as("the application ended").isTrue();
			String output = Files.readString(log);
			System.out.println("First lock call (" + call + "): "
					+ output.lines().filter((line) -> line.startsWith("FIRST ")).findFirst().orElse("none"));
			return output;
		}
		finally {
			application.destroyForcibly();
		}
	}

}
