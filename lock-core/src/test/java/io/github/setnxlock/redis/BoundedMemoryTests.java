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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thirty thousand one-off keys (a million in the {@code soak} profile), each taken and
 * released once: the registry's per-key state (local slots, holds, renewals) returns to
 * nothing, and what stays in Redis is the fencing counters, every one of them with an
 * expiry. The per-key state does not depend on the protocol, so the timestamp protocol
 * runs a tenth as many keys to keep the build short. The number of keys can be changed
 * with {@code -Dsetnx.lock.test.one-off-keys=N}.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class BoundedMemoryTests {

	private static final int KEYS = Integer.getInteger("setnx.lock.test.one-off-keys", 30_000);

	private static final int THREADS = 8;

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void perKeyStateReturnsToNothingAfterManyOneOffKeys(LockProtocol protocol) throws Exception {
		int keys = (protocol == LockProtocol.TOKEN) ? KEYS : KEYS / 10;
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server,
						SetnxLockSettings.builder()
							.protocol(protocol)
							.timestampUnit(TimestampUnit.MILLISECONDS)
							.build())) {
			ExecutorService threads = Executors.newFixedThreadPool(THREADS);
			long start = System.nanoTime();
			try {
				List<Future<?>> workers = new ArrayList<>();
				for (int t = 0; t < THREADS; t++) {
					int first = t;
					workers.add(threads.submit(() -> {
						for (int i = first; i < keys; i += THREADS) {
							LeasedLock lock = client.registry.obtain("one-off:" + i);
							lock.lock();
							if (i % 2 == 0) {
								assertThat(lock.fencingToken()).isPositive();
							}
							lock.unlock();
						}
						return null;
					}));
				}
				for (Future<?> worker : workers) {
					worker.get(10, TimeUnit.MINUTES);
				}
			}
			finally {
				threads.shutdownNow();
			}
			System.out.printf("%s: %d one-off keys taken and released in %s%n", protocol, keys,
					Duration.ofNanos(System.nanoTime() - start));
			assertThat(client.registry.localKeyCount()).isZero();
			assertThat(client.registry.engine().stats().renewing()).isZero();
			// Only the fencing counters stay, and each of them expires: one per key under
			// the timestamp protocol, which draws with every acquisition; under the token
			// protocol, one per key whose holder asked for a token.
			long counters = (protocol == LockProtocol.TOKEN) ? (keys + 1) / 2 : keys;
			assertThat(server.execute("DBSIZE")).isEqualTo(counters);
			for (int i = 0; i < 100; i++) {
				String key = (String) server.execute("RANDOMKEY");
				assertThat(key).endsWith(":fence");
				assertThat((Long) server.execute("PTTL", key)).as(key).isPositive();
			}
		}
	}

}
