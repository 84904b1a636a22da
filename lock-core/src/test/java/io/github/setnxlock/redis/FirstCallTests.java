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

package io.github.setnxlock.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first lock call of a registry made a moment before, in a JVM of its own (this one's
 * Redis client is warm already): a {@code tryLock(200 ms)} on a free key takes the lock,
 * although a client that has just started takes longer than that to connect. The registry
 * starts connecting when it is made, and the call waits for a first connection that is
 * still on its way.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class FirstCallTests {

	@Test
	void theFirstCallOfANewRegistryTakesAFreeLock(@TempDir Path directory) throws Exception {
		try (RedisServer server = RedisServer.start()) {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			Path log = directory.resolve("first-call.log");
			Process first = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
					FirstCall.class.getName(), Integer.toString(server.port()), "first-call")
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			try {
				assertThat(first.waitFor(120, TimeUnit.SECONDS)).as("the JVM ended").isTrue();
			}
			finally {
				first.destroyForcibly();
			}
			String output = Files.readString(log);
			System.out.println("First call of a new registry: "
					+ output.lines().filter((line) -> line.startsWith("FIRST ")).findFirst().orElse("none"));
			assertThat(output).as(output).containsPattern("(?m)^FIRST true \\d+$");
		}
	}

}
