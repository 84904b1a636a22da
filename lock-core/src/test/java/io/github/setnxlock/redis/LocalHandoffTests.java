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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Local hand-off (DESIGN: "Local hand-off"): a release while a thread of the same
 * registry waits passes the Redis key to that thread without a round trip, and stays
 * exclusive, fenced and bounded for the waiters of other registries.
 *
 * @author setnx-lock authors
 */
class LocalHandoffTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void resetCommandStats() {
		server().execute("CONFIG", "RESETSTAT");
	}

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void aReleaseWhileAThreadOfTheRegistryWaitsHandsTheKeyOverWithoutRedis() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("handed");
			lock.lock();
			long firstToken = lock.fencingToken();
			String ownerToken = (String) server().execute("GET", "lock:handed");
			Future<List<Object>> next = this.threads.submit(() -> {
				lock.lock();
				try {
					return List.of(server().execute("GET", "lock:handed"), lock.fencingToken(),
							client.registry.operations().heldLocks().get(0).leaseLeft());
				}
				finally {
					lock.unlock();
				}
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:handed").slotWaiters() == 1);
			lock.unlock();
			List<Object> seen = next.get(10, TimeUnit.SECONDS);
			assertThat(client.registry.engine().stats().localHandoffs()).isEqualTo(1);
			// The key was never released: it still held the first hold's owner token (a
			// new acquisition writes a new one).
			assertThat(seen.get(0)).isEqualTo(ownerToken);
			// The next hold drew a token of its own, above the first, and runs on the
			// first hold's lease and renewal.
			assertThat((Long) seen.get(1)).isGreaterThan(firstToken);
			assertThat((Duration) seen.get(2)).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
			assertThat(server().execute("EXISTS", "lock:handed")).isEqualTo(0L);
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void manyThreadsOfOneRegistryStayExclusiveAndFencedThroughHandOffs() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			AtomicInteger inside = new AtomicInteger();
			AtomicInteger overlaps = new AtomicInteger();
			long[] lastToken = { 0 };
			AtomicInteger tokensOutOfOrder = new AtomicInteger();
			int threadCount = 8;
			int iterations = 200;
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < threadCount; t++) {
				workers.add(this.threads.submit(() -> {
					LeasedLock lock = client.registry.obtain("shared");
					for (int i = 0; i < iterations; i++) {
						lock.lock();
						try {
							if (inside.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							long token = lock.fencingToken();
							if (token <= lastToken[0]) {
								tokensOutOfOrder.incrementAndGet();
							}
							lastToken[0] = token;
							inside.decrementAndGet();
						}
						finally {
							lock.unlock();
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(2, TimeUnit.MINUTES);
			}
			assertThat(overlaps).hasValue(0);
			assertThat(tokensOutOfOrder).hasValue(0);
			long handoffs = client.registry.engine().stats().localHandoffs();
			assertThat(handoffs).isPositive();
			// Every hold is either acquired in Redis (one SET each) or handed over.
			assertThat(server().commandStat("set", "calls") + handoffs)
				.isGreaterThanOrEqualTo((long) threadCount * iterations);
			assertThat(server().execute("EXISTS", "lock:shared")).isEqualTo(0L);
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void aWaiterOfAnotherRegistryIsNotStarvedByHandOffs() throws Exception {
		try (TestClient busy = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient other = new TestClient(server(), SetnxLockSettings.defaults())) {
			AtomicBoolean running = new AtomicBoolean(true);
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				workers.add(this.threads.submit(() -> {
					LeasedLock lock = busy.registry.obtain("busy");
					while (running.get()) {
						lock.lock();
						lock.unlock();
					}
					return null;
				}));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> busy.registry.engine().stats().localHandoffs() > 100);
			try {
				LeasedLock lock = other.registry.obtain("busy");
				for (int i = 0; i < 20; i++) {
					// Without a bound, the four threads would pass the key among
					// themselves
					// for ever, and this wait would end with false.
					assertThat(lock.tryLock(Duration.ofSeconds(10))).as("attempt %d", i).isTrue();
					lock.unlock();
				}
			}
			finally {
				running.set(false);
			}
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
			assertThat(busy.registry.engine().stats().localHandoffs()).isPositive();
		}
	}

	@Test
	void aWaiterOfAnotherRegistryGoesWithinTheHandOffBoundWhileLocalWaitersNeverRunOut() throws Exception {
		int localWaiters = 100;
		try (TestClient busy = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient other = new TestClient(server(), SetnxLockSettings.defaults())) {
			List<String> order = new CopyOnWriteArrayList<>();
			LeasedLock lock = busy.registry.obtain("bounded");
			LockHandle first = lock.acquireAsync(Duration.ZERO).get(10, TimeUnit.SECONDS).orElseThrow();
			// A line of waiters in this registry that never runs dry until all have held
			// the key: each releases as soon as it holds it.
			List<CompletableFuture<Void>> local = new ArrayList<>();
			for (int i = 0; i < localWaiters; i++) {
				local.add(lock.acquireAsync(Duration.ofSeconds(60)).thenCompose((handle) -> {
					order.add("local");
					return handle.orElseThrow().release();
				}));
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> busy.registry.engine().stats().keyState("lock:bounded").slotWaiters() == localWaiters);
			Future<Boolean> elsewhere = this.threads.submit(() -> {
				LeasedLock theirs = other.registry.obtain("bounded");
				boolean acquired = theirs.tryLock(Duration.ofSeconds(60));
				if (acquired) {
					order.add("elsewhere");
					theirs.unlock();
				}
				return acquired;
			});
			// The waiter elsewhere has marked the key: it waits for its release.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> String.valueOf(server().execute("GET", "lock:bounded")).endsWith("!"));
			first.release().get(10, TimeUnit.SECONDS);
			assertThat(elsewhere.get(60, TimeUnit.SECONDS)).isTrue();
			CompletableFuture.allOf(local.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			// Without the bound, all forty would go first: a local waiter is always
			// there.
			// With it, a couple of hand-offs, and a few more while the read that finds
			// the
			// mark is out, then the key goes back through Redis to the waiter elsewhere.
			assertThat(order.indexOf("elsewhere")).as("holds before the waiter elsewhere: %s", order)
				.isLessThan(localWaiters / 2);
			assertThat(busy.registry.engine().stats().localHandoffs()).isPositive();
		}
	}

	@Test
	void aWaiterWithALeaseOfItsOwnIsNotHandedTheKey() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("explicit");
			lock.lock();
			Future<Boolean> next = this.threads.submit(() -> {
				boolean acquired = lock.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(5));
				if (acquired) {
					// A fresh key with the waiter's own lease, not the 30 s one handed
					// on.
					assertThat((Long) server().execute("PTTL", "lock:explicit")).isLessThanOrEqualTo(5000);
					lock.unlock();
				}
				return acquired;
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:explicit").slotWaiters() == 1);
			lock.unlock();
			assertThat(next.get(10, TimeUnit.SECONDS)).isTrue();
			assertThat(client.registry.engine().stats().localHandoffs()).isZero();
		}
	}

	@Test
	void turnedOffEveryReleaseGoesThroughRedis() throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder().localHandoff(LocalHandoffSettings.OFF).build();
		try (TestClient client = new TestClient(server(), settings)) {
			LeasedLock lock = client.registry.obtain("off");
			lock.lock();
			Future<?> next = this.threads.submit(() -> {
				lock.lock();
				lock.unlock();
				return null;
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:off").slotWaiters() == 1);
			lock.unlock();
			next.get(10, TimeUnit.SECONDS);
			assertThat(client.registry.engine().stats().localHandoffs()).isZero();
			assertThat(server().commandStat("set", "calls")).isEqualTo(2);
		}
	}

	@Test
	void aHandedHoldWhoseKeyWasTakenIsLostLikeAnyOther() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("taken");
			lock.lock();
			Future<?> next = this.threads.submit(() -> {
				lock.lock();
				try {
					server().execute("SET", "lock:taken", "someone-else");
					assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::fencingToken);
					assertThat(lock.isHeldByCurrentThread()).isFalse();
				}
				finally {
					assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
				}
				return null;
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:taken").slotWaiters() == 1);
			lock.unlock();
			next.get(10, TimeUnit.SECONDS);
			assertThat(client.registry.engine().stats().localHandoffs()).isEqualTo(1);
			assertThat(server().execute("GET", "lock:taken")).isEqualTo("someone-else");
		}
	}

	@Test
	void settingsRefuseABoundThatIsNotOne() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LocalHandoffSettings(true, 0, Duration.ofMillis(5)))
			.withMessageContaining("maxHandoffs must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new LocalHandoffSettings(true, 4, Duration.ofMillis(-1)))
			.withMessageContaining("maxTime must be positive");
	}

	private static RedisServer server() {
		return redis.server();
	}

}
