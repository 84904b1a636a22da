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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.timestamp.TimestampLockCommands;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A loss reaches the listeners once, when it is known, whatever else happens: a lease
 * nobody renews is reported when it ends (also for an asynchronous hold nobody releases,
 * whose state in this JVM is then freed), a renewal that found the key taken while the
 * release waited for it is reported whatever the release finds after it, and listeners
 * that fall thousands of events behind still hear every loss.
 *
 * @author setnx-lock authors
 */
class LossReportTests {

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void anExplicitLeaseThatEndsIsReportedWhenItEndsAndOnceOnly(LockProtocol protocol) throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, settings(protocol).build(), Duration.ofSeconds(2),
						List.of(lossesInto(losses)))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("explicit");
			assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(1))).isTrue();
			// Reported without unlock(): the holder may be busy for long.
			await().atMost(Duration.ofSeconds(5)).until(() -> losses.size() == 1);
			assertThat(losses.get(0).reason()).isEqualTo(Reason.LEASE_ENDED);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			assertThat(losses).hasSize(1);
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void anAsynchronousHoldNobodyReleasesIsReportedAndForgottenWhenItsLeaseEnds(LockProtocol protocol)
			throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, settings(protocol).build(), Duration.ofSeconds(2),
						List.of(lossesInto(losses)))) {
			warmUp(client);
			LockHandle handle = client.registry.obtain("forgotten")
				.acquireAsync(Duration.ZERO, Duration.ofSeconds(1))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			await().atMost(Duration.ofSeconds(5)).until(() -> losses.size() == 1);
			assertThat(losses.get(0).reason()).isEqualTo(Reason.LEASE_ENDED);
			await().atMost(Duration.ofSeconds(5)).until(() -> client.registry.engine().stats().localKeys() == 0);
			// Its owner still hears of the loss, once, if it comes back.
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> handle.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(losses).hasSize(1);
			assertThat(client.registry.engine().stats().localKeys()).isZero();
			// The key is free to take, in this JVM too.
			LeasedLock again = client.registry.obtain("forgotten");
			assertThat(again.tryLock()).isTrue();
			again.unlock();
		}
	}

	@Test
	void aHoldPastTheHoldLimitIsReportedWhenItsLeaseEnds() throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		SetnxLockSettings settings = settings(LockProtocol.TOKEN).leaseTime(Duration.ofSeconds(1))
			.maxHold(Duration.ofMillis(1500))
			.build();
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, settings, Duration.ofSeconds(2),
						List.of(lossesInto(losses)))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("capped");
			lock.lock();
			await().atMost(Duration.ofSeconds(10)).until(() -> losses.size() == 1);
			assertThat(losses.get(0).reason()).isEqualTo(Reason.LEASE_ENDED);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			assertThat(losses).hasSize(1);
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aRenewalThatFoundTheKeyTakenWhileTheReleaseWaitedIsALossWhateverTheReleaseFinds(LockProtocol protocol)
			throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						settings(protocol).leaseTime(Duration.ofSeconds(2)).build(), List.of(lossesInto(losses)))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("taken");
			// Loaded, so that the release is one EVALSHA whose answer can be lost.
			server.execute("SCRIPT", "LOAD", releaseScript(protocol).redisScript().getScriptAsString());
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch unlockNow = new CountDownLatch(1);
			CompletableFuture<Object> unlocked = new CompletableFuture<>();
			Thread holder = new Thread(() -> {
				lock.lock();
				held.countDown();
				try {
					unlockNow.await();
					lock.unlock();
					unlocked.complete("released");
				}
				catch (InterruptedException | RuntimeException ex) {
					unlocked.complete(ex);
				}
			}, "taken-holder");
			holder.start();
			assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
			long batches = client.registry.engine().stats().renewalBatches();
			proxy.stall();
			// Another client takes the key while the holder's renewal is on its way.
			server.execute("SET", "lock:taken", "another-client");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> client.registry.engine().stats().renewalBatches() > batches);
			unlockNow.countDown();
			// Handshake: the release waits for that renewal, which will find the key
			// taken; the release after it runs, but its answer never comes.
			await().atMost(Duration.ofSeconds(5)).until(() -> holder.getState() == Thread.State.TIMED_WAITING);
			proxy.loseRepliesTo(releaseScript(protocol).sha1(), 1, true);
			proxy.resume();
			assertThat(unlocked.get(10, TimeUnit.SECONDS)).isInstanceOf(LockLostException.class);
			assertThat(proxy.lostReplies()).isEqualTo(1);
			assertThat(losses).hasSize(1);
			assertThat(losses.get(0).reason()).isEqualTo(Reason.RENEWAL_REJECTED);
		}
	}

	@Test
	void listenersFarBehindStillHearEveryLoss() throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		CountDownLatch gate = new CountDownLatch(1);
		LockListener slow = new LockListener() {

			@Override
			public void acquisitionEnded(Acquisition acquisition) {
				// The events thread waits here: every later event queues behind it.
				if (Thread.currentThread().getName().startsWith("setnx-lock-events")) {
					try {
						gate.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}

			@Override
			public void lockLost(LockLostEvent event) {
				losses.add(event);
			}

		};
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server,
						settings(LockProtocol.TOKEN).leaseTime(Duration.ofSeconds(3)).build(), Duration.ofSeconds(2),
						List.of(slow))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("held");
			lock.lock();
			// Each asynchronous cycle queues two events (acquired, released): more than
			// the queue holds.
			LeasedLock busy = client.registry.obtain("busy");
			for (int i = 0; i < 6000; i++) {
				busy.acquireAsync(Duration.ZERO)
					.get(5, TimeUnit.SECONDS)
					.orElseThrow()
					.release()
					.get(5, TimeUnit.SECONDS);
			}
			server.execute("SET", "lock:held", "another-client");
			await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
			// Found lost while the listeners are thousands of events behind.
			assertThat(losses).isEmpty();
			gate.countDown();
			await().atMost(Duration.ofSeconds(30)).until(() -> losses.size() == 1);
			assertThat(losses.get(0).key()).isEqualTo("held");
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		}
	}

	/**
	 * Connect first: a first connection on a loaded machine can take longer than the
	 * short leases these tests use.
	 */
	private static void warmUp(TestClient client) {
		LeasedLock warm = client.registry.obtain("warm-up");
		warm.lock();
		warm.unlock();
	}

	private static io.github.setnxlock.redis.gateway.LockScript releaseScript(LockProtocol protocol) {
		return (protocol == LockProtocol.TOKEN) ? TokenLockCommands.RELEASE : TimestampLockCommands.RELEASE;
	}

	private static LockListener lossesInto(List<LockLostEvent> losses) {
		return new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				losses.add(event);
			}

		};
	}

	private static SetnxLockSettings.Builder settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).timestampUnit(TimestampUnit.MILLISECONDS);
	}

}
