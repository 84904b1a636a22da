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

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key held by a client that is not of this library (redis-py's {@code Lock}, say:
 * {@code SET NX PX} with a random token of its own, released by its own
 * compare-and-delete) under the token protocol. That holder's token cannot be marked, and
 * its release announces nothing: a waiter re-checks on its short back-off (2 ms doubling
 * to 64 ms) and takes the key soon after that client releases it, not when that client's
 * lease would have ended. The token is left as it was.
 *
 * @author setnx-lock authors
 */
class ForeignHolderTests {

	/** The foreign client's compare-and-delete. */
	private static final String FOREIGN_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
			+ "return redis.call('DEL', KEYS[1]) else return 0 end";

	/**
	 * How soon after the foreign release the waiter has the key: the back-off's longest
	 * pause and an attempt, with room for a loaded machine; the foreign lease is 20 s.
	 */
	private static final Duration SOON = Duration.ofSeconds(1);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void aWaiterBehindAnotherClientsLockTakesItSoonAfterThatClientReleases() throws Exception {
		RedisServer server = redis.server();
		ExecutorService threads = Executors.newSingleThreadExecutor();
		try (TestClient client = new TestClient(server, SetnxLockSettings.defaults())) {
			// Subscribed first, so the waiter relies on release messages where it can.
			client.registry.engine().stats().subscribeAndCheck();
			await().atMost(Duration.ofSeconds(10)).until(() -> client.registry.engine().stats().listening());
			String foreign = UUID.randomUUID().toString().replace("-", "");
			assertThat(server.execute("SET", "lock:foreign", foreign, "NX", "PX", "20000")).isEqualTo("OK");
			Future<Long> waiting = threads
				.submit(() -> Acquisitions.acquiredAt(client.registry.obtain("foreign"), Duration.ofSeconds(25), 0));
			Handshakes.awaitWaiterOnRedis(client.registry, "lock:foreign");
			assertThat(server.execute("GET", "lock:foreign")).as("the foreign token, unmarked").isEqualTo(foreign);
			long releasedAt = System.nanoTime();
			assertThat(server.execute("EVAL", FOREIGN_RELEASE, "1", "lock:foreign", foreign)).isEqualTo(1L);
			long acquiredAt = waiting.get(30, TimeUnit.SECONDS);
			assertThat(acquiredAt).as("the waiter got the key").isPositive();
			assertThat(Duration.ofNanos(acquiredAt - releasedAt)).as("soon after the foreign release").isLessThan(SOON);
		}
		finally {
			threads.shutdownNow();
		}
	}

}
