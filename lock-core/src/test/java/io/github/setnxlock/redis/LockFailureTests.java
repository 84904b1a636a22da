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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.test.RedisServer;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Bad input and an unusable Redis: each gets an error that says what was wrong, and
 * nothing in Redis is lost or left behind.
 *
 * @author setnx-lock authors
 */
class LockFailureTests {

	private RedisServer server;

	@BeforeEach
	void startRedis() {
		this.server = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		this.server.close();
	}

	private static SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).build();
	}

	@Test
	void obtainWithoutAKeyFailsAtOnce() {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults())) {
			assertThatIllegalArgumentException().isThrownBy(() -> client.registry.obtain(null))
				.withMessage("Lock key must not be null");
			assertThatIllegalArgumentException().isThrownBy(() -> client.registry.obtain(""))
				.withMessageContaining("must not be empty");
			assertThatIllegalArgumentException().isThrownBy(() -> client.registry.obtain(" \t"))
				.withMessageContaining("must not be empty or blank");
		}
	}

	@Test
	void badDurationsAreRejectedWithTheirNames() {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("durations");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofSeconds(-1)))
				.withMessage("wait must not be negative, but was PT-1S");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ZERO))
				.withMessage("lease must be positive, but was PT0S");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ofMillis(-5)))
				.withMessageStartingWith("lease must be positive");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(null, Duration.ofSeconds(1)))
				.withMessage("wait must not be null");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ofNanos(10)))
				.withMessageStartingWith("lease must be at least 1ms");
			assertThat(client.redis.hasKey("lock:durations")).isFalse();
		}
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(-30)))
			.withMessage("leaseTime must be positive, but was PT-30S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SetnxLockSettings.builder().leaseTime(Duration.ofDays(400)))
			.withMessageStartingWith("leaseTime must be at most");
	}

	@Test
	void negativeTimeOfTheLockInterfaceMeansASingleAttempt() throws InterruptedException {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("jdk-contract");
			assertThat(lock.tryLock(-1, TimeUnit.SECONDS)).isTrue();
			lock.unlock();
		}
	}

	@Test
	void aValueThatIsNotATimestampIsAClearErrorAndIsKept() {
		SetnxLockSettings timestamp = settings(LockProtocol.TIMESTAMP);
		try (TestClient client = new TestClient(this.server, timestamp)) {
			client.redis.opsForValue().set("lock:garbage", "not-a-time");
			LeasedLock lock = client.registry.obtain("garbage");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::tryLock)
				.withMessageContaining("'lock:garbage'")
				.withMessageContaining("'not-a-time'")
				.withMessageContaining("not a Unix timestamp")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("garbage"));
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)));
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::isLocked);
			assertThat(client.redis.opsForValue().get("lock:garbage")).isEqualTo("not-a-time");
			assertThat(client.registry.localKeyCount()).isZero();
			for (String garbage : new String[] { "-5", "12.5", "1e10", "", "9999999999999999999" }) {
				client.redis.opsForValue().set("lock:garbage", garbage);
				assertThatExceptionOfType(LockAccessException.class).as(garbage).isThrownBy(lock::tryLock);
				assertThat(client.redis.opsForValue().get("lock:garbage")).isEqualTo(garbage);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aKeyOfAnotherTypeIsAClearErrorAndIsKept(LockProtocol protocol) {
		try (TestClient client = new TestClient(this.server, settings(protocol))) {
			client.redis.opsForHash().put("lock:hash", "field", "value");
			LeasedLock lock = client.registry.obtain("hash");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::tryLock)
				.withMessageContaining("'lock:hash'")
				.withMessageContaining("holds a Redis hash");
			assertThat(client.redis.opsForHash().get("lock:hash", "field")).isEqualTo("value");
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisIsDownThenLockCallsFailNamingTheKey(LockProtocol protocol) {
		try (TestClient client = new TestClient(this.server, settings(protocol), Duration.ofMillis(500))) {
			this.server.stop();
			LeasedLock lock = client.registry.obtain("down");
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(2)))
				.withMessageContaining("'down'")
				.satisfies((ex) -> assertThat(ex.getCause()).isNotNull());
			// Bounded by the wait, whatever the client's reconnect and command timeouts
			// do.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::tryLock)
				.withMessageContaining("'down'");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::lock).withMessageContaining("'down'");
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void redisDownIsATransientDataAccessFailureThatSpringsRetrySupportTriesAgain() {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults(), Duration.ofMillis(500))) {
			this.server.stop();
			LeasedLock lock = client.registry.obtain("retried");
			AtomicLong attempts = new AtomicLong();
			RetryTemplate retry = new RetryTemplate(RetryPolicy.builder()
				.includes(TransientDataAccessException.class)
				.maxRetries(20)
				.delay(Duration.ofMillis(100))
				.build());
			boolean acquired = retry.invoke(() -> {
				if (attempts.incrementAndGet() == 2) {
					this.server.restart();
				}
				try {
					return lock.tryLock(Duration.ofSeconds(2));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			});
			assertThat(acquired).isTrue();
			assertThat(attempts).as("the first attempt found Redis down").hasValueGreaterThanOrEqualTo(2);
			lock.unlock();
			this.server.stop();
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(lock::tryLock)
				.isInstanceOf(LockAccessException.class)
				.isInstanceOf(TransientDataAccessResourceException.class)
				.withMessageContaining("'retried'");
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisStallsThenATimedWaitEndsOnTimeAndALateAcquisitionIsReleased(LockProtocol protocol)
			throws InterruptedException {
		try (TestClient client = new TestClient(this.server, settings(protocol), Duration.ofSeconds(30))) {
			LeasedLock lock = client.registry.obtain("stalled");
			assertThat(lock.tryLock()).isTrue();
			lock.unlock();
			// An answer to the background script load that comes as Redis pauses would be
			// Redis answering during the wait: contention, not silence.
			client.registry.warmedUp().join();
			this.server.pause();
			long start = System.nanoTime();
			try {
				assertThatExceptionOfType(LockAccessException.class)
					.isThrownBy(() -> lock.tryLock(Duration.ofMillis(500)))
					.withMessageContaining("did not answer within the wait")
					.withMessageContaining("'stalled'");
				// The command timeout is 30 s; the wait is what bounds the call.
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			}
			finally {
				this.server.resume();
			}
			// The attempt that reached Redis after the caller gave up is given back.
			await().atMost(Duration.ofSeconds(20)).until(() -> !client.redis.hasKey("lock:stalled"));
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			lock.unlock();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisIsDownAtUnlockThenItFailsAndStillEndsTheHold(LockProtocol protocol) {
		List<LockListener.Release> releases = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void released(Release release) {
				releases.add(release);
			}

		};
		TestObservationRegistry observations = TestObservationRegistry.create();
		try (TestClient client = new TestClient(this.server, settings(protocol), Duration.ofMillis(500),
				List.of(listener))) {
			client.registry.setObservationRegistry(observations);
			LeasedLock lock = client.registry.obtain("unlock-down");
			lock.lock();
			this.server.stop();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::unlock)
				.withMessageContaining("'unlock-down'");
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertThat(lock.holdCount()).isZero();
			assertThat(client.registry.localKeyCount()).isZero();
			// The hold ended here, whatever Redis makes of it (the key ends with its
			// lease): the listeners (the active-holds gauge) and the hold's observation
			// hear so.
			assertThat(releases).singleElement().satisfies((release) -> {
				assertThat(release.key()).isEqualTo("unlock-down");
				assertThat(release.lost()).isFalse();
			});
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.hold")
				.that()
				.hasBeenStopped();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisStallsAtUnlockThenItEndsByTheHoldersDeadlineNotTheCommandTimeout(LockProtocol protocol)
			throws Exception {
		Duration lease = Duration.ofSeconds(2);
		// Spring Boot's default command timeout: a minute.
		try (TestClient client = new TestClient(this.server, settings(protocol).toBuilder().leaseTime(lease).build(),
				Duration.ofSeconds(60))) {
			LeasedLock lock = client.registry.obtain("unlock-stalled");
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch stalled = new CountDownLatch(1);
			CompletableFuture<Throwable> unlocked = new CompletableFuture<>();
			AtomicLong unlockedAt = new AtomicLong();
			Thread holder = new Thread(() -> {
				lock.lock();
				held.countDown();
				try {
					stalled.await();
					lock.unlock();
					unlocked.complete(null);
				}
				catch (Throwable ex) {
					unlocked.complete(ex);
				}
				finally {
					unlockedAt.set(System.nanoTime());
				}
			}, "stalled-holder");
			holder.setDaemon(true);
			holder.start();
			assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
			long stalledAt = System.nanoTime();
			this.server.pause();
			try {
				stalled.countDown();
				Throwable thrown = unlocked.get(lease.plusSeconds(5).toSeconds(), TimeUnit.SECONDS);
				assertThat(thrown).isInstanceOf(LockAccessException.class).hasMessageContaining("'unlock-stalled'");
				// The holder's deadline is at most a lease after the stall began (its
				// last renewal was sent before); unlock() may take a tenth of a second
				// more, and a machine busy with the other test classes may wake the
				// holder late. The command timeout is a minute.
				assertThat(Duration.ofNanos(unlockedAt.get() - stalledAt)).isLessThan(lease.plusSeconds(2));
				assertThat(client.registry.localKeyCount()).isZero();
			}
			finally {
				this.server.resume();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisAnswersNothingAtFirstUseThenTimedWaitsEndAboutASecondAfterItAcceptedTheConnection(
			LockProtocol protocol) throws Exception {
		Duration wait = Duration.ofMillis(300);
		ExecutorService callers = Executors.newFixedThreadPool(4);
		// Stalled before the registry connects: its first connection meets it, and the
		// calls find that connection still on its way. Redis accepts the connection (the
		// kernel does) and answers nothing: after a second of that, the calls end.
		this.server.pause();
		try (TestClient client = new TestClient(this.server, settings(protocol), Duration.ofSeconds(60))) {
			try {
				List<Future<Duration>> calls = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					LeasedLock lock = client.registry.obtain("first-use-" + i);
					calls.add(callers.submit(() -> {
						long start = System.nanoTime();
						try {
							assertThat(lock.tryLock(wait)).isFalse();
						}
						catch (LockAccessException ex) {
							assertThat(ex).hasMessageContaining("'" + lock.key() + "'");
						}
						return Duration.ofNanos(System.nanoTime() - start);
					}));
				}
				for (Future<Duration> call : calls) {
					// A second of silence, and room for a loaded machine's scheduling.
					assertThat(call.get(30, TimeUnit.SECONDS)).isLessThan(Duration.ofMillis(1500));
				}
			}
			finally {
				this.server.resume();
			}
		}
		finally {
			callers.shutdownNow();
		}
	}

	@Test
	void aLocalWaiterThatCameDuringTheOwnersAcquisitionGetsTheLockWhenTheOwnersLeaseEnds() throws Exception {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults(), Duration.ofSeconds(10))) {
			LeasedLock warmUp = client.registry.obtain("warm-up");
			warmUp.lock();
			warmUp.unlock();
			ExecutorService threads = Executors.newCachedThreadPool();
			try {
				// The owner's acquisition stalls, so the waiter finds an owner without a
				// hold.
				this.server.pause();
				Future<Boolean> owner = threads.submit(() -> client.registry.obtain("stalled-owner")
					.tryLock(Duration.ofSeconds(10), Duration.ofMillis(500)));
				Thread.sleep(200);
				Future<Boolean> waiter = threads
					.submit(() -> client.registry.obtain("stalled-owner").tryLock(Duration.ofSeconds(8)));
				Thread.sleep(200);
				this.server.resume();
				assertThat(owner.get(10, TimeUnit.SECONDS)).isTrue();
				// The owner never unlocks; its lease of 500 ms ends, and the waiter gets
				// in.
				assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
			}
			finally {
				threads.shutdownNow();
			}
		}
	}

	@Test
	void creatingARegistryNeitherWaitsForRedisNorFailsWhenItIsDown() {
		this.server.stop();
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults())) {
			assertThat(client.registry.obtain("lazy").key()).isEqualTo("lazy");
		}
		this.server.restart();
		this.server.pause();
		try {
			long start = System.nanoTime();
			try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults())) {
				assertThat(client.registry.obtain("stalled").key()).isEqualTo("stalled");
				// It connects in the background: a stalled Redis holds nobody here.
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			}
		}
		finally {
			this.server.resume();
		}
	}

}
