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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listener that blocks when it hears of a lost lock (an alert sent over a slow network,
 * an {@code @EventListener} doing I/O) delays no renewal: another lock of the same
 * registry stays held, renewed, and out of another client's reach, while the listener is
 * still blocked.
 *
 * @author setnx-lock authors
 */
class SlowListenerTests {

	/** Renewed every third of it: two leases see six renewals of one hold. */
	private static final Duration LEASE = Duration.ofSeconds(1);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aListenerThatBlocksOnALostLockDelaysNoRenewal(LockProtocol protocol) throws Exception {
		RedisServer server = redis.server();
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		List<String> heardOn = new CopyOnWriteArrayList<>();
		LockListener blocking = new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				heardOn.add(event.key() + " on " + Thread.currentThread().getName());
				entered.countDown();
				try {
					proceed.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}

		};
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.leaseTime(LEASE)
			.build();
		ExecutorService holders = Executors.newFixedThreadPool(2);
		try (TestClient client = new TestClient(server, settings, Duration.ofSeconds(2), List.of(blocking));
				TestClient other = new TestClient(server, settings)) {
			client.redis.hasKey("warm-up");
			CountDownLatch release = new CountDownLatch(1);
			Future<Boolean> victim = holders.submit(() -> hold(client.registry.obtain("victim"), release));
			holders.submit(() -> hold(client.registry.obtain("doomed"), release));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:victim") != null
						&& client.registry.engine().stats().keyState("lock:doomed") != null
						&& client.registry.engine().stats().renewing() == 2);
			// Forgotten by Redis: the next renewal of 'doomed' is answered "not ours".
			server.execute("DEL", "lock:doomed");
			assertThat(entered.await(10, TimeUnit.SECONDS)).as("the listener heard of the loss").isTrue();
			long renewals = client.registry.engine().stats().renewals();
			await("renewals of 'victim' while the listener blocks").atMost(Duration.ofSeconds(5))
				.until(() -> client.registry.engine().stats().renewals() >= renewals + 6);
			assertThat(other.registry.obtain("victim").tryLock()).as("'victim' out of another client's reach")
				.isFalse();
			assertThat(heardOn).singleElement().asString().startsWith("doomed on ").doesNotContain("renewal");
			proceed.countDown();
			release.countDown();
			assertThat(victim.get(10, TimeUnit.SECONDS)).as("'victim' held to the end").isTrue();
		}
		finally {
			proceed.countDown();
			holders.shutdownNow();
		}
	}

	/**
	 * Hold a lock until released, and say whether it was held all along.
	 */
	private static boolean hold(LeasedLock lock, CountDownLatch release) throws InterruptedException {
		lock.lock();
		try {
			release.await(30, TimeUnit.SECONDS);
			return lock.isHeldByCurrentThread();
		}
		finally {
			if (lock.holdCount() > 0) {
				try {
					lock.unlock();
				}
				catch (IllegalMonitorStateException ex) {
					// 'doomed' was lost, as intended.
				}
			}
		}
	}

}
