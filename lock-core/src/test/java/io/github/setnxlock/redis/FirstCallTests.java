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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first lock call of a registry made a moment before: a {@code tryLock(200 ms)} on a
 * free key takes the lock, although a client that has just started takes longer than that
 * to connect, and its first commands' answers may come later than that once it has (in a
 * JVM of its own, whose classes are still to load). The registry starts connecting when
 * it is made; the call waits for a first connection that is still on its way, and the
 * registry's first acquisitions wait a while for their answer, whatever else Redis
 * answered meanwhile.
 *
 * @author setnx-lock authors
 */
class FirstCallTests {

	private static final String KEY = "first-acquisition";

	/** Later than the first call's wait, well within the first answers' wait. */
	private static final Duration LATE = Duration.ofMillis(400);

	@Test
	void theFirstAcquisitionWhoseAnswerComesAfterItsWaitAndAfterOtherAnswersTakesAFreeLock() throws Exception {
		try (RedisServer server = RedisServer.start(); TcpProxy proxy = TcpProxy.start(server)) {
			loadScripts(server);
			// The background warm-up's answer comes during the first call's wait (or
			// before it, on a slow machine), the acquisition's own answer after it.
			proxy.delayRepliesTo("SCRIPT", Duration.ofMillis(100));
			proxy.delayRepliesTo(KEY, LATE);
			try (TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
					SetnxLockSettings.defaults(), List.of())) {
				await().pollInterval(Duration.ofMillis(1))
					.atMost(Duration.ofSeconds(10))
					.until(() -> proxy.delayedRequests("SCRIPT") > 0);
				assertFirstCallTakesTheLock(client, proxy);
			}
		}
	}

	@Test
	void theFirstAcquisitionOfAWarmRegistryWhoseAnswerComesAfterItsWaitTakesAFreeLock() throws Exception {
		try (RedisServer server = RedisServer.start(); TcpProxy proxy = TcpProxy.start(server)) {
			proxy.delayRepliesTo(KEY, LATE);
			try (TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
					SetnxLockSettings.defaults(), List.of())) {
				client.registry.warmedUp().join();
				assertFirstCallTakesTheLock(client, proxy);
			}
		}
	}

	@Test
	void theFirstAcquisitionWhoseWaitIsOverBeforeItIsSentTakesAFreeLock() throws Exception {
		// As in a cold JVM whose first call spends its wait loading classes and seeding
		// the owner tokens' random source: the wait is over before the attempt goes out.
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, SetnxLockSettings.defaults())) {
			client.registry.warmedUp().join();
			LeasedLock lock = client.registry.obtain(KEY);
			assertThat(lock.tryLock(Duration.ofNanos(1))).isTrue();
			lock.unlock();
		}
	}

	private static void assertFirstCallTakesTheLock(TestClient client, TcpProxy proxy) throws InterruptedException {
		LeasedLock lock = client.registry.obtain(KEY);
		assertThat(lock.tryLock(Duration.ofMillis(200))).isTrue();
		assertThat(proxy.delayedRequests(KEY)).isPositive();
		lock.unlock();
	}

	/**
	 * Load the registry's scripts into a server, so that a new registry's warm-up is a
	 * single {@code SCRIPT EXISTS}.
	 */
	private static void loadScripts(RedisServer server) {
		try (TestClient loader = new TestClient(server, SetnxLockSettings.defaults())) {
			loader.registry.warmedUp().join();
		}
	}

	@Test
	@ResourceLock(SharedResources.CORES)
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
