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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The timestamp protocol shares keys with clients of the documented {@code SETNX} pattern
 * ({@link DocumentedSetnxClient}): with the defaults of that pattern (seconds, no key
 * prefix), neither side ever holds a key while the other does, and each takes over the
 * other's stale timestamps.
 *
 * @author setnx-lock authors
 */
class TimestampInteropTests {

	private static final String KEY = "lock.foo";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private TestClient ours;

	private TestClient theirs;

	private ExecutorService threads;

	@BeforeEach
	void connect() {
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.keyPrefix("")
			.timestampUnit(TimestampUnit.SECONDS)
			.build();
		this.ours = new TestClient(redis.server(), settings);
		this.theirs = new TestClient(redis.server(), settings);
		this.threads = Executors.newCachedThreadPool();
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.ours.close();
		this.theirs.close();
	}

	@Test
	void documentedClientsAndRegistryThreadsNeverHoldTogether() throws Exception {
		double registryShare = contend(this.ours, "without keyspace notifications");
		// Documented clients announce nothing: the registry's waiters re-check every
		// 1-3 ms against four clients polling as often.
		assertThat(registryShare).as("share of entries by the registry").isGreaterThanOrEqualTo(0.05);
	}

	@Test
	void keyspaceNotificationsGiveTheRegistryAFairShare() throws Exception {
		redis.server().execute("CONFIG", "SET", "notify-keyspace-events", "Kg");
		try (TestClient notified = new TestClient(redis.server(),
				this.ours.registry.getSettings().toBuilder().keyspaceNotifications(true).build())) {
			await().atMost(Duration.ofSeconds(10)).until(() -> notified.registry.engine().stats().subscribeAndCheck());
			double registryShare = contend(notified, "with keyspace notifications");
			// Woken by the notification of each DEL.
			assertThat(registryShare).as("share of entries by the registry").isGreaterThanOrEqualTo(0.2);
		}
		finally {
			redis.server().execute("CONFIG", "SET", "notify-keyspace-events", "");
		}
	}

	/**
	 * Let four documented clients and four registry threads take the lock in turns for a
	 * few seconds, and check that they never hold it together.
	 * @return the share of entries the registry got
	 */
	private double contend(TestClient ours, String scenario) throws Exception {
		int threadsPerSide = 4;
		long runNanos = TimeUnit.SECONDS.toNanos(4);
		CriticalSection section = new CriticalSection();
		AtomicInteger byRegistry = new AtomicInteger();
		AtomicInteger byDocumented = new AtomicInteger();
		AtomicInteger badValues = new AtomicInteger();
		long start = System.nanoTime();
		List<Future<?>> workers = new ArrayList<>();
		DocumentedSetnxClient documented = new DocumentedSetnxClient(this.theirs.redis);
		for (int t = 0; t < threadsPerSide; t++) {
			workers.add(this.threads.submit(() -> {
				while (System.nanoTime() - start < runNanos) {
					long expiry = documented.acquire(KEY, 10, Duration.ofSeconds(30));
					assertThat(expiry).isPositive();
					section.enter();
					byDocumented.incrementAndGet();
					assertThat(documented.release(KEY, expiry)).isTrue();
					thinkOutsideTheLock();
				}
				return null;
			}));
			workers.add(this.threads.submit(() -> {
				LeasedLock lock = ours.registry.obtain(KEY);
				while (System.nanoTime() - start < runNanos) {
					assertThat(lock.tryLock(Duration.ofSeconds(30), Duration.ofSeconds(10))).isTrue();
					try {
						String stored = ours.redis.opsForValue().get(KEY);
						if (!isPlausibleExpiry(stored, 10)) {
							badValues.incrementAndGet();
						}
						section.enter();
						byRegistry.incrementAndGet();
					}
					finally {
						lock.unlock();
					}
					thinkOutsideTheLock();
				}
				return null;
			}));
		}
		for (Future<?> worker : workers) {
			worker.get(90, TimeUnit.SECONDS);
		}
		int total = byRegistry.get() + byDocumented.get();
		System.out.printf(
				"timestamp interop run, %s: %d entries, %.1f%% by the registry, %.1f%% by documented clients%n",
				scenario, total, 100.0 * byRegistry.get() / total, 100.0 * byDocumented.get() / total);
		assertThat(section.overlaps()).isZero();
		assertThat(badValues.get()).isZero();
		assertThat(byDocumented.get()).isPositive();
		assertThat(section.entries()).isEqualTo(total);
		return byRegistry.get() / (double) total;
	}

	@Test
	void registryTakesOverAStaleTimestampOfACrashedDocumentedClient() throws InterruptedException {
		long stale = DocumentedSetnxClient.unixSeconds() - 5;
		this.theirs.redis.opsForValue().set(KEY, Long.toString(stale));
		LeasedLock lock = this.ours.registry.obtain(KEY);
		assertThat(lock.tryLock()).isTrue();
		assertThat(isPlausibleExpiry(this.ours.redis.opsForValue().get(KEY), 30)).isTrue();
		lock.unlock();
		assertThat(this.ours.redis.hasKey(KEY)).isFalse();
	}

	@Test
	void documentedClientTakesOverAStaleTimestampOfARegistryHolder() throws Exception {
		LeasedLock lock = this.ours.registry.obtain(KEY);
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(1))).isTrue();
		DocumentedSetnxClient documented = new DocumentedSetnxClient(this.theirs.redis);
		long expiry = documented.acquire(KEY, 30, Duration.ofSeconds(10));
		assertThat(expiry).isPositive();
		assertThat(this.theirs.redis.opsForValue().get(KEY)).isEqualTo(Long.toString(expiry));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(this.theirs.redis.opsForValue().get(KEY)).isEqualTo(Long.toString(expiry));
		assertThat(documented.release(KEY, expiry)).isTrue();
	}

	@Test
	void registriesAndDocumentedClientsRacingToTakeOverAnExpiredLockHaveOneWinner() throws Exception {
		int rounds = 30;
		int perSide = 4;
		Duration wait = Duration.ofMillis(150);
		List<TestClient> registries = new ArrayList<>();
		try {
			// A registry each: threads of one registry would settle their contention
			// locally and send one contender to Redis.
			for (int i = 0; i < perSide; i++) {
				registries.add(new TestClient(redis.server(), this.ours.registry.getSettings()));
			}
			DocumentedSetnxClient documented = new DocumentedSetnxClient(this.theirs.redis);
			int byRegistry = 0;
			for (int round = 0; round < rounds; round++) {
				// A holder that crashed: its timestamp is past, and nobody will delete
				// it.
				this.theirs.redis.opsForValue().set(KEY, Long.toString(DocumentedSetnxClient.unixSeconds() - 2));
				CyclicBarrier start = new CyclicBarrier(2 * perSide);
				CountDownLatch decided = new CountDownLatch(2 * perSide);
				CountDownLatch over = new CountDownLatch(1);
				AtomicInteger registryWinners = new AtomicInteger();
				AtomicInteger documentedWinners = new AtomicInteger();
				List<Future<?>> contenders = new ArrayList<>();
				for (TestClient registry : registries) {
					contenders.add(this.threads.submit(() -> {
						LeasedLock lock = registry.registry.obtain(KEY);
						start.await(10, TimeUnit.SECONDS);
						boolean won = lock.tryLock(wait, Duration.ofSeconds(10));
						(won ? registryWinners : new AtomicInteger()).incrementAndGet();
						decided.countDown();
						// A winner holds until every contender has given up, then
						// releases from its own thread.
						over.await(30, TimeUnit.SECONDS);
						if (won) {
							lock.unlock();
						}
						return null;
					}));
				}
				for (int i = 0; i < perSide; i++) {
					contenders.add(this.threads.submit(() -> {
						start.await(10, TimeUnit.SECONDS);
						long expiry = documented.acquire(KEY, 10, wait);
						(expiry > 0 ? documentedWinners : new AtomicInteger()).incrementAndGet();
						decided.countDown();
						over.await(30, TimeUnit.SECONDS);
						if (expiry > 0) {
							assertThat(documented.release(KEY, expiry)).isTrue();
						}
						return null;
					}));
				}
				assertThat(decided.await(30, TimeUnit.SECONDS)).isTrue();
				assertThat(registryWinners.get() + documentedWinners.get())
					.as("round %d: contenders that took the expired lock over", round)
					.isOne();
				byRegistry += registryWinners.get();
				over.countDown();
				for (Future<?> contender : contenders) {
					contender.get(30, TimeUnit.SECONDS);
				}
				assertThat(this.theirs.redis.hasKey(KEY)).as("round %d: released", round).isFalse();
			}
			System.out.printf("timestamp takeover race: %d rounds, %d won by a registry, %d by a documented client%n",
					rounds, byRegistry, rounds - byRegistry);
		}
		finally {
			registries.forEach(TestClient::close);
		}
	}

	@Test
	void aLosingDocumentedGetsetDoesNotCostTheHolderItsLock() throws Exception {
		LeasedLock lock = this.ours.registry.obtain(KEY);
		assertThat(lock.tryLock()).isTrue();
		long ours = Long.parseLong(this.ours.redis.opsForValue().get(KEY));
		// A contender that read an expired value before we took the key sends its GETSET
		// now: it gets our valid timestamp back, so by the documentation it lost and goes
		// back to waiting, but the value it wrote stays.
		String old = this.theirs.redis.opsForValue().getAndSet(KEY, Long.toString(ours + 3));
		assertThat(Long.parseLong(old)).isEqualTo(ours);
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(this.ours.redis.hasKey(KEY)).isFalse();
	}

	@Test
	void aDocumentedClientThatTookALostKeyKeepsIt() throws Exception {
		LeasedLock lock = this.ours.registry.obtain(KEY);
		lock.lock();
		// Redis loses the key and its fencing counter (a restart without persistence),
		// and a documented client takes the free key.
		this.theirs.redis.delete(List.of(KEY, "{" + KEY + "}:fence"));
		DocumentedSetnxClient documented = new DocumentedSetnxClient(this.theirs.redis);
		long expiry = documented.acquire(KEY, 30, Duration.ofSeconds(5));
		assertThat(expiry).isPositive();
		// Our next renewal or our release must not take it back.
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(this.theirs.redis.opsForValue().get(KEY)).isEqualTo(Long.toString(expiry));
		assertThat(documented.release(KEY, expiry)).isTrue();
	}

	@Test
	void fencingTokensDoNotChangeTheValueOtherClientsRead() throws InterruptedException {
		LeasedLock lock = this.ours.registry.obtain(KEY);
		assertThat(lock.tryLock()).isTrue();
		AtomicLong token = new AtomicLong(lock.fencingToken());
		assertThat(token.get()).isPositive();
		assertThat(this.ours.redis.opsForValue().get(KEY)).matches("\\d{10}");
		assertThat(this.ours.redis.hasKey("{" + KEY + "}:fence")).isTrue();
		lock.unlock();
	}

	/**
	 * Work between two uses of the lock, on both sides alike. Without it a releasing
	 * client of the documented pattern sends its next {@code SETNX} right behind its
	 * {@code DEL} and wins the lock back before any waiter can (its own kind included),
	 * which measures nothing but that.
	 */
	private static void thinkOutsideTheLock() throws InterruptedException {
		Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
	}

	/**
	 * Whether a stored value is what the documentation writes: a decimal Unix time in
	 * seconds, at most {@code lease + 1} seconds ahead (a second more for the clock
	 * tick).
	 */
	private static boolean isPlausibleExpiry(String stored, long leaseSeconds) {
		if (stored == null || !stored.matches("\\d{10}")) {
			return false;
		}
		long now = DocumentedSetnxClient.unixSeconds();
		long value = Long.parseLong(stored);
		return value > now && value <= now + leaseSeconds + 2;
	}

}
