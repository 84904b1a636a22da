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
package io.github.setnxlock.shedlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;

import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link SetnxLockProvider} against ShedLock's contract for lock providers, as its
 * documentation and its own provider tests describe it (the cases are written here: its
 * test-support artifact is not published): not reentrant, {@code lockAtMostFor} a hard
 * end, {@code lockAtLeastFor} kept after unlock, extension while held and not once lost,
 * and many threads of two applications through {@link DefaultLockingTaskExecutor}.
 *
 * @author setnx-lock authors
 */
class SetnxLockProviderTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<SetnxLockRegistry> registries = new ArrayList<>();

	private SetnxLockProvider provider;

	private SetnxLockProvider otherApplication;

	private String name;

	@BeforeEach
	void connect() {
		this.provider = new SetnxLockProvider(registry());
		this.otherApplication = new SetnxLockProvider(registry());
		this.name = "job-" + UUID.randomUUID();
		// Connected before the tests' short leases start counting.
		for (SetnxLockProvider connected : List.of(this.provider, this.otherApplication)) {
			connected.lock(config("warm-up-" + UUID.randomUUID(), Duration.ofSeconds(5), Duration.ZERO))
				.orElseThrow()
				.unlock();
		}
	}

	@AfterEach
	void disconnect() {
		this.registries.forEach(SetnxLockRegistry::close);
		this.factories.forEach(RedisConnections::destroy);
	}

	@Test
	void aLockHoldsTheKeyUntilUnlocked() {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofMinutes(5), Duration.ZERO)).orElseThrow();
		assertLocked(this.name);
		assertThat(server().execute("PTTL", "lock:shedlock:" + this.name)).asString().isNotEqualTo("-1");
		lock.unlock();
		assertUnlocked(this.name);
	}

	@Test
	void aHeldNameIsRefusedEvenToItsOwnThreadAndProvider() {
		LockConfiguration config = config(this.name, Duration.ofMinutes(5), Duration.ZERO);
		for (int i = 0; i < 10; i++) {
			SimpleLock lock = this.provider.lock(config).orElseThrow();
			assertThat(this.provider.lock(config)).isEmpty();
			assertThat(this.otherApplication.lock(config)).isEmpty();
			lock.unlock();
		}
		assertUnlocked(this.name);
	}

	@Test
	void twoNamesAreHeldAtOnce() {
		SimpleLock one = this.provider.lock(config(this.name, Duration.ofMinutes(5), Duration.ZERO)).orElseThrow();
		SimpleLock two = this.provider.lock(config(this.name + "-2", Duration.ofMinutes(5), Duration.ZERO))
			.orElseThrow();
		assertLocked(this.name);
		assertLocked(this.name + "-2");
		one.unlock();
		two.unlock();
	}

	@Test
	void lockAtMostForIsAHardEnd() throws Exception {
		this.provider.lock(config(this.name, Duration.ofMillis(50), Duration.ZERO)).orElseThrow();
		Thread.sleep(100);
		assertUnlocked(this.name);
		SimpleLock next = this.otherApplication.lock(config(this.name, Duration.ofMillis(50), Duration.ZERO))
			.orElseThrow();
		next.unlock();
	}

	@Test
	void lockAtMostForIsNeverRenewed() throws Exception {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofMillis(300), Duration.ZERO)).orElseThrow();
		// Well past the lease, and past several of the watchdog's ticks for the
		// registry's lease.
		Thread.sleep(700);
		assertUnlocked(this.name);
		lock.unlock();
	}

	@Test
	void lockAtLeastForKeepsTheKeyAfterUnlock() throws Exception {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofSeconds(4), Duration.ofSeconds(1)))
			.orElseThrow();
		lock.unlock();
		assertThat(this.provider.lock(config(this.name, Duration.ofSeconds(4), Duration.ZERO))).isEmpty();
		assertThat(this.otherApplication.lock(config(this.name, Duration.ofSeconds(4), Duration.ZERO))).isEmpty();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.otherApplication.lock(config(this.name, Duration.ofSeconds(4), Duration.ZERO))
				.map((next) -> {
					next.unlock();
					return true;
				})
				.orElse(false));
	}

	@Test
	void extendingKeepsTheLockPastItsFirstLockAtMostFor() throws Exception {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofSeconds(2), Duration.ZERO)).orElseThrow();
		SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		extended = extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		Thread.sleep(2500);
		assertLocked(this.name);
		extended.unlock();
		assertUnlocked(this.name);
	}

	@Test
	void anExtendedLockKeepsItsNewLockAtLeastFor() {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
		SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
		extended.unlock();
		assertLocked(this.name);
	}

	@Test
	void aLockIsSpentByItsUnlockOrItsExtension() {
		SimpleLock unlocked = this.provider.lock(config(this.name, Duration.ofSeconds(2), Duration.ZERO)).orElseThrow();
		unlocked.unlock();
		assertThatIllegalStateException().isThrownBy(() -> unlocked.extend(Duration.ofSeconds(10), Duration.ZERO));
		assertThatIllegalStateException().isThrownBy(unlocked::unlock);
		SimpleLock extended = this.provider.lock(config(this.name, Duration.ofSeconds(10), Duration.ZERO))
			.orElseThrow();
		SimpleLock next = extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		assertThatIllegalStateException().isThrownBy(() -> extended.extend(Duration.ofSeconds(10), Duration.ZERO));
		assertThatIllegalStateException().isThrownBy(extended::unlock);
		next.unlock();
		assertUnlocked(this.name);
	}

	@Test
	void anExpiredLockIsNotExtendedAndNeitherItsExtensionNorItsUnlockTouchesANewHolder() throws Exception {
		SimpleLock expired = this.provider.lock(config(this.name, Duration.ofMillis(2), Duration.ZERO)).orElseThrow();
		Thread.sleep(4);
		assertThat(expired.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
		assertUnlocked(this.name);
		SimpleLock lateExtender = this.provider.lock(config(this.name, Duration.ofMillis(200), Duration.ZERO))
			.orElseThrow();
		Thread.sleep(400);
		SimpleLock current = this.otherApplication.lock(config(this.name, Duration.ofSeconds(10), Duration.ZERO))
			.orElseThrow();
		assertThat(lateExtender.extend(Duration.ofMinutes(5), Duration.ZERO)).isEmpty();
		assertThat((Long) server().execute("PTTL", "lock:shedlock:" + this.name)).isBetween(1L, 10_000L);
		current.unlock();
		SimpleLock lateUnlocker = this.provider.lock(config(this.name, Duration.ofMillis(200), Duration.ZERO))
			.orElseThrow();
		Thread.sleep(400);
		SimpleLock next = this.otherApplication.lock(config(this.name, Duration.ofSeconds(10), Duration.ZERO))
			.orElseThrow();
		lateUnlocker.unlock();
		assertLocked(this.name);
		assertThat(this.provider.lock(config(this.name, Duration.ofMillis(200), Duration.ZERO))).isEmpty();
		next.unlock();
		assertUnlocked(this.name);
	}

	@Test
	void aBadExtensionLeavesTheLockUsable() {
		SimpleLock lock = this.provider.lock(config(this.name, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
		// lockAtLeastFor longer than lockAtMostFor: ShedLock refuses the configuration.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> lock.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)));
		SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		extended.unlock();
		assertUnlocked(this.name);
	}

	@Test
	void manyThreadsOfTwoApplicationsRunEachJobAloneThroughShedLocksExecutor() throws Exception {
		LockingTaskExecutor first = new DefaultLockingTaskExecutor(this.provider);
		LockingTaskExecutor second = new DefaultLockingTaskExecutor(this.otherApplication);
		Counter[] jobs = { new Counter(this.name + "-a"), new Counter(this.name + "-b") };
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				LockingTaskExecutor executor = (t % 2 == 0) ? first : second;
				Counter job = jobs[(t / 2) % 2];
				workers.add(threads.submit(() -> {
					int[] done = { 0 };
					while (done[0] < 50) {
						executor.executeWithLock((Runnable) () -> {
							job.increment();
							done[0]++;
						}, config(job.name, Duration.ofMinutes(5), Duration.ofMillis(5)));
					}
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(jobs[0].value).isEqualTo(4 * 50);
		assertThat(jobs[1].value).isEqualTo(4 * 50);
	}

	@Test
	void leasesAreKeptWithinWhatTheRegistryAccepts() {
		LockConfiguration spent = new LockConfiguration(ClockProvider.now().minusSeconds(10), this.name,
				Duration.ofSeconds(1), Duration.ZERO);
		assertThat(SetnxLockProvider.leaseUntil(spent)).isEqualTo(Duration.ofMillis(1));
		LockConfiguration endless = config(this.name, Duration.ofDays(3650), Duration.ZERO);
		assertThat(SetnxLockProvider.leaseUntil(endless)).isEqualTo(Duration.ofDays(365));
		assertThat(this.provider.lock(endless)).isPresent().get().satisfies(SimpleLock::unlock);
	}

	private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
		return new LockConfiguration(ClockProvider.now(), name, atMost, atLeast);
	}

	private static void assertLocked(String name) {
		assertThat(server().execute("EXISTS", "lock:shedlock:" + name)).isEqualTo(1L);
	}

	private static void assertUnlocked(String name) {
		assertThat(server().execute("EXISTS", "lock:shedlock:" + name)).isEqualTo(0L);
	}

	private SetnxLockRegistry registry() {
		LettuceConnectionFactory factory = RedisConnections.create(server(), Duration.ofSeconds(2));
		this.factories.add(factory);
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.builder().leaseTime(Duration.ofMillis(150)).build());
		this.registries.add(registry);
		return registry;
	}

	private static RedisServer server() {
		return redis.server();
	}

	/**
	 * A job's counter, read and written without synchronization: a second runner at the
	 * same time loses an increment.
	 */
	private static final class Counter {

		private final String name;

		private int value;

		Counter(String name) {
			this.name = name;
		}

		void increment() {
			int read = this.value;
			try {
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.value = read + 1;
		}

	}

}
