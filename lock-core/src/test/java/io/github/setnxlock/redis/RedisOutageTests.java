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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redis out of reach while many calls want one key: once a call has shown that Redis is
 * unreachable, the calls waiting for their turn behind it, and those that come after,
 * fail within about the command timeout, naming the key and why, instead of each waiting
 * out its own wait; a Redis that answers, however slowly, and a holder that keeps the key
 * for long, are contention as before; the first answer of Redis ends it.
 *
 * @author setnx-lock authors
 */
class RedisOutageTests {

	/** The command timeout of an application built from the README. */
	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	/** Each caller's wait: far longer than the command timeout. */
	private static final Duration WAIT = Duration.ofSeconds(20);

	/**
	 * What a loaded machine may add to the command timeout before every caller has heard:
	 * generous, and still far less than the wait.
	 */
	private static final Duration MARGIN = Duration.ofSeconds(6);

	private RedisServer server;

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@BeforeEach
	void startRedis() {
		this.server = RedisServer.start();
	}

	@AfterEach
	void stopRedis() throws InterruptedException {
		this.callers.shutdownNow();
		assertThat(this.callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void whenRedisGoesDownTheCallsInLineForAKeyFailWithinAboutTheCommandTimeoutNotTheirWaits(LockProtocol protocol)
			throws Exception {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.builder().protocol(protocol).build(),
				COMMAND_TIMEOUT)) {
			LeasedLock lock = client.registry.obtain("outage");
			assertThat(lock.tryLock(WAIT)).isTrue();
			lock.unlock();
			this.server.stop();
			// More callers than fit in their wait one command timeout after another.
			List<Future<Duration>> calls = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				calls.add(this.callers.submit(() -> {
					long start = System.nanoTime();
					assertThatExceptionOfType(LockAccessException.class)
						.isThrownBy(() -> client.registry.obtain("outage").tryLock(WAIT))
						.withMessageContaining("'outage'")
						.satisfies((ex) -> assertThat(ex.getCause()).isNotNull());
					return Duration.ofNanos(System.nanoTime() - start);
				}));
			}
			for (Future<Duration> call : calls) {
				assertThat(call.get(60, TimeUnit.SECONDS)).isLessThan(COMMAND_TIMEOUT.plus(MARGIN));
			}
			// A call that comes now, while another asks Redis, does not wait its turn.
			Future<?> asking = this.callers.submit(() -> client.registry.obtain("outage").tryLock(WAIT));
			await().atMost(Duration.ofSeconds(10)).until(() -> client.registry.localKeyCount() == 1);
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> client.registry.obtain("outage").tryLock(WAIT))
				.withMessageContaining("'outage'")
				.withMessageContaining("unreachable");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(COMMAND_TIMEOUT.plus(MARGIN));
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> asking.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAccessException.class);
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void asynchronousAcquisitionsInLineFailAsThreadsDo() throws Exception {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults(), COMMAND_TIMEOUT)) {
			LeasedLock lock = client.registry.obtain("async-outage");
			assertThat(lock.tryLock(WAIT)).isTrue();
			lock.unlock();
			this.server.stop();
			long start = System.nanoTime();
			List<CompletableFuture<Optional<LockHandle>>> acquisitions = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				acquisitions.add(client.registry.obtain("async-outage").acquireAsync(WAIT));
			}
			for (CompletableFuture<Optional<LockHandle>> acquisition : acquisitions) {
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> acquisition.get(60, TimeUnit.SECONDS))
					.havingCause()
					.isInstanceOf(LockAccessException.class)
					.withMessageContaining("'async-outage'");
			}
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(COMMAND_TIMEOUT.plus(MARGIN));
		}
	}

	@Test
	void aSlowRedisAndAHolderThatKeepsTheKeyAreContentionNotAnOutage() throws Exception {
		try (TcpProxy proxy = TcpProxy.start(this.server);
				TestClient client = new TestClient(RedisConnections.create(proxy, COMMAND_TIMEOUT),
						SetnxLockSettings.defaults(), List.of());
				TestClient holder = new TestClient(this.server, SetnxLockSettings.defaults())) {
			LeasedLock held = holder.registry.obtain("kept");
			assertThat(held.tryLock(WAIT)).isTrue();
			// Every answer takes a while, well within the command timeout.
			proxy.delay(Duration.ofMillis(150));
			List<Future<Boolean>> calls = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				calls.add(this.callers.submit(() -> client.registry.obtain("kept").tryLock(Duration.ofSeconds(3))));
			}
			for (Future<Boolean> call : calls) {
				assertThat(call.get(60, TimeUnit.SECONDS)).isFalse();
			}
			held.unlock();
			assertThat(client.registry.obtain("kept").tryLock(WAIT)).isTrue();
		}
	}

	@Test
	void theFirstAnswerAfterAnOutageEndsIt() throws Exception {
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults(), COMMAND_TIMEOUT)) {
			LeasedLock lock = client.registry.obtain("back");
			assertThat(lock.tryLock(WAIT)).isTrue();
			lock.unlock();
			this.server.stop();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(WAIT));
			this.server.restart();
			// Once the client has reconnected, Redis answers and the line waits again.
			await().atMost(Duration.ofSeconds(30))
				.pollInSameThread()
				.ignoreExceptions()
				.until(() -> lock.tryLock(WAIT));
			List<Future<Boolean>> waiters = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				waiters.add(this.callers.submit(() -> {
					LeasedLock waiter = client.registry.obtain("back");
					boolean acquired = waiter.tryLock(WAIT);
					if (acquired) {
						waiter.unlock();
					}
					return acquired;
				}));
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:back").slotWaiters() == 4);
			lock.unlock();
			for (Future<Boolean> waiter : waiters) {
				assertThat(waiter.get(60, TimeUnit.SECONDS)).isTrue();
			}
		}
	}

	@Test
	void aRefusedFirstConnectionFailsAtOnce() {
		this.server.stop();
		try (TestClient client = new TestClient(this.server, SetnxLockSettings.defaults(), COMMAND_TIMEOUT)) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> client.registry.obtain("refused").tryLock(WAIT))
				.withMessageContaining("'refused'");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(MARGIN);
		}
	}

}
