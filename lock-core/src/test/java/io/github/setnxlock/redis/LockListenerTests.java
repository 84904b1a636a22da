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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockListener.Acquisition;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.LockListener.Release;
import io.github.setnxlock.LockListener.Renewal;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a registry tells its {@link LockListener}s: every acquisition that went to Redis
 * with its outcome, releases with their hold time, renewals, takeovers; and a listener
 * that fails stops nothing.
 *
 * @author setnx-lock authors
 */
class LockListenerTests {

	private final List<Object> heard = new CopyOnWriteArrayList<>();

	private RedisServer server;

	@BeforeEach
	void start() {
		this.server = RedisServer.start();
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void acquisitionsReleasesAndRenewalsAreReported() throws Exception {
		// Renewed every third of a second, and long enough to survive a busy machine.
		SetnxLockSettings settings = SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(1)).build();
		try (TestClient client = client(settings, failing(), recording());
				TestClient other = new TestClient(this.server, settings)) {
			client.redis.hasKey("warm-up");
			LeasedLock lock = client.registry.obtain("reported", "reports");
			lock.lock();
			assertThat(lock.tryLock()).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.heard.stream().anyMatch((event) -> event instanceof Renewal));
			lock.unlock();
			lock.unlock();
			LeasedLock held = other.registry.obtain("reported");
			held.lock();
			assertThat(lock.tryLock(Duration.ofMillis(500))).isFalse();
			held.unlock();
			assertThat(events(Acquisition.class)).hasSize(2).satisfiesExactly((first) -> {
				assertThat(first.result()).isEqualTo(Result.ACQUIRED);
				assertThat(first.name()).isEqualTo("reports");
				assertThat(first.tookOver()).isFalse();
			}, (second) -> {
				assertThat(second.result()).isEqualTo(Result.TIMEOUT);
				assertThat(second.waited()).isGreaterThanOrEqualTo(Duration.ofMillis(500));
			});
			assertThat(events(Release.class)).singleElement().satisfies((release) -> {
				assertThat(release.key()).isEqualTo("reported");
				assertThat(release.lost()).isFalse();
				assertThat(release.held()).isPositive();
			});
			assertThat(events(Renewal.class)).allSatisfy((renewal) -> assertThat(renewal.renewed()).isTrue());
		}
	}

	@Test
	void errorsInterruptsAndTakeoversAreReported() throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.build();
		try (TestClient client = client(settings, recording());
				TestClient other = new TestClient(this.server, settings)) {
			client.redis.opsForValue().set("lock:stale", "1000");
			LeasedLock stale = client.registry.obtain("stale");
			assertThat(stale.tryLock()).isTrue();
			stale.unlock();
			LeasedLock held = other.registry.obtain("busy");
			held.lock();
			Thread.currentThread().interrupt();
			assertThatExceptionOfType(InterruptedException.class)
				.isThrownBy(() -> client.registry.obtain("busy").tryLock(Duration.ofSeconds(5)));
			Thread waiter = new Thread(() -> {
				try {
					client.registry.obtain("busy").lockInterruptibly();
				}
				catch (InterruptedException ex) {
					// Expected.
				}
			});
			waiter.start();
			Handshakes.awaitWaiterOnRedis(client.registry, "lock:busy");
			waiter.interrupt();
			waiter.join(10_000);
			held.unlock();
			this.server.stop();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(client.registry.obtain("down")::tryLock);
			assertThat(events(Acquisition.class)).extracting(Acquisition::result)
				.containsExactly(Result.ACQUIRED, Result.INTERRUPTED, Result.ERROR);
			assertThat(events(Acquisition.class).get(0).tookOver()).isTrue();
		}
	}

	private TestClient client(SetnxLockSettings settings, LockListener... listeners) {
		return new TestClient(this.server, settings, Duration.ofMillis(500), List.of(listeners));
	}

	private <T> List<T> events(Class<T> type) {
		return this.heard.stream().filter(type::isInstance).map(type::cast).toList();
	}

	private LockListener recording() {
		return new LockListener() {

			@Override
			public void acquisitionEnded(Acquisition acquisition) {
				LockListenerTests.this.heard.add(acquisition);
			}

			@Override
			public void released(Release release) {
				LockListenerTests.this.heard.add(release);
			}

			@Override
			public void renewalEnded(Renewal renewal) {
				LockListenerTests.this.heard.add(renewal);
			}

		};
	}

	private static LockListener failing() {
		return new LockListener() {

			@Override
			public void acquisitionEnded(Acquisition acquisition) {
				throw new IllegalStateException("listener failed");
			}

			@Override
			public void released(Release release) {
				throw new IllegalStateException("listener failed");
			}

			@Override
			public void renewalEnded(Renewal renewal) {
				throw new IllegalStateException("listener failed");
			}

		};
	}

}
