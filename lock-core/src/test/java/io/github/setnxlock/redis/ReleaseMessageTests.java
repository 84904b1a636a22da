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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.engine.KeyState;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters woken by the release message: one subscription per registry, no polling while a
 * holder that announces its release holds the key, and a lost subscription that degrades
 * to waiting on the holder's lease rather than to a hang.
 *
 * @author setnx-lock authors
 */
class ReleaseMessageTests {

	private RedisServer server;

	private TestClient holder;

	private TestClient waiter;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void start() {
		this.server = RedisServer.start();
		this.server.execute("CONFIG", "RESETSTAT");
		this.holder = new TestClient(this.server, SetnxLockSettings.defaults());
		this.waiter = new TestClient(this.server, SetnxLockSettings.defaults());
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.waiter.close();
		this.holder.close();
		this.server.close();
	}

	@Test
	void aWaiterAsksRedisOnceAndIsWokenByTheRelease() throws Exception {
		subscribed(this.waiter);
		LeasedLock held = this.holder.registry.obtain("announced");
		held.lock();
		// The holder's lock() was a plain SET, which loaded no script: loaded here, so
		// that the waiter's attempt is one EVALSHA rather than EVALSHA, NOSCRIPT, EVAL.
		this.waiter.registry.operations().checkHealth();
		long attemptsBefore = acquireCalls();
		Future<Long> waiting = this.threads.submit(() -> {
			LeasedLock lock = this.waiter.registry.obtain("announced");
			lock.lock();
			long acquiredAt = System.nanoTime();
			lock.unlock();
			return acquiredAt;
		});
		// A second's wait: a polling waiter would ask Redis a dozen times or more.
		Thread.sleep(1000);
		long attemptsWhileHeld = acquireCalls() - attemptsBefore;
		long releasedAt = System.nanoTime();
		held.unlock();
		long acquiredAt = waiting.get(10, TimeUnit.SECONDS);
		assertThat(attemptsWhileHeld).as("acquire attempts while the key was held").isEqualTo(1);
		// The holder's lease had 29 s left: only the message can have woken the waiter.
		assertThat(Duration.ofNanos(acquiredAt - releasedAt)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void aReleaseThatNobodyWaitsForIsNotAnnounced() throws Exception {
		subscribed(this.waiter);
		LeasedLock held = this.holder.registry.obtain("unwaited");
		for (int i = 0; i < 20; i++) {
			held.lock();
			held.unlock();
		}
		// A contender that tries once does not wait, and leaves the holder's token as it
		// is.
		held.lock();
		Object token = this.server.execute("GET", "lock:unwaited");
		assertThat(
				this.threads.submit(() -> this.waiter.registry.obtain("unwaited").tryLock()).get(10, TimeUnit.SECONDS))
			.isFalse();
		assertThat(this.server.execute("GET", "lock:unwaited")).isEqualTo(token);
		held.unlock();
		assertThat(this.server.execute("EXISTS", "lock:unwaited")).isEqualTo(0L);
		assertThat(this.server.commandStat("publish", "calls")).isZero();
	}

	@Test
	void aWaiterMarksTheHoldersTokenAndOnlyThatReleaseIsAnnounced() throws Exception {
		subscribed(this.waiter);
		LeasedLock held = this.holder.registry.obtain("marked");
		held.lock();
		String token = (String) this.server.execute("GET", "lock:marked");
		long ttl = (Long) this.server.execute("PTTL", "lock:marked");
		Future<Boolean> waiting = this.threads.submit(() -> {
			LeasedLock lock = this.waiter.registry.obtain("marked");
			lock.lock();
			lock.unlock();
			return true;
		});
		await().atMost(Duration.ofSeconds(10))
			.until(() -> (token + "!").equals(this.server.execute("GET", "lock:marked")));
		// The mark keeps the holder's expiry.
		assertThat((Long) this.server.execute("PTTL", "lock:marked")).isPositive().isLessThanOrEqualTo(ttl);
		held.unlock();
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
		// The holder's release, which the waiter had marked; the waiter's own found no
		// mark.
		assertThat(this.server.commandStat("publish", "calls")).isEqualTo(1);
		assertThat(this.server.execute("EXISTS", "lock:marked")).isEqualTo(0L);
	}

	@Test
	void aMarkedTokenIsStillTheHoldersToRenewAndToKeep() throws Exception {
		SetnxLockSettings lease = SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(1)).build();
		try (TestClient renewing = new TestClient(this.server, lease)) {
			subscribed(this.waiter);
			LeasedLock held = renewing.registry.obtain("renewed");
			held.lock();
			// The waiter marks the token, then gives up while the renewals (every third
			// of a second) keep the lock its holder's for two leases.
			assertThat(this.threads.submit(() -> this.waiter.registry.obtain("renewed").tryLock(Duration.ofSeconds(2)))
				.get(10, TimeUnit.SECONDS)).isFalse();
			assertThat((String) this.server.execute("GET", "lock:renewed")).endsWith("!");
			assertThat(held.isHeldByCurrentThread()).isTrue();
			held.unlockKeepingFor(Duration.ofSeconds(30));
			assertThat((Long) this.server.execute("PTTL", "lock:renewed")).isGreaterThan(20_000L);
			LeasedLock again = renewing.registry.obtain("announced-after-renewals");
			again.lock();
			assertThat(this.threads
				.submit(() -> this.waiter.registry.obtain("announced-after-renewals").tryLock(Duration.ofMillis(500)))
				.get(10, TimeUnit.SECONDS)).isFalse();
			// Renewed while marked.
			Thread.sleep(1200);
			again.unlock();
			// The release that kept 'renewed', whose token the waiter had marked, and the
			// release of 'announced-after-renewals'; never a renewal.
			assertThat(this.server.commandStat("publish", "calls")).isEqualTo(2);
		}
	}

	@Test
	void oneSubscriptionServesEveryWaiterOfARegistry() throws Exception {
		subscribed(this.waiter);
		List<LeasedLock> held = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			LeasedLock lock = this.holder.registry.obtain("many:" + i);
			lock.lock();
			held.add(lock);
		}
		CountDownLatch acquired = new CountDownLatch(20);
		for (int i = 0; i < 20; i++) {
			String key = "many:" + i;
			this.threads.submit(() -> {
				LeasedLock lock = this.waiter.registry.obtain(key);
				lock.lock();
				acquired.countDown();
				lock.unlock();
				return null;
			});
		}
		Thread.sleep(200);
		assertThat(this.server.execute("PUBSUB", "NUMSUB", "setnx-lock:released")).asList()
			.containsExactly("setnx-lock:released", 1L);
		held.forEach(LeasedLock::unlock);
		assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aLostSubscriptionDegradesToWaitingOnTheLease() throws Exception {
		subscribed(this.waiter);
		LeasedLock held = this.holder.registry.obtain("unheard");
		assertThat(held.tryLock(Duration.ZERO, Duration.ofSeconds(2))).isTrue();
		Future<Boolean> waiting = this.threads.submit(() -> {
			LeasedLock lock = this.waiter.registry.obtain("unheard");
			lock.lock();
			lock.unlock();
			return true;
		});
		Handshakes.awaitWaiterOnRedis(this.waiter.registry, "lock:unheard");
		this.server.execute("CLIENT", "KILL", "TYPE", "pubsub");
		held.unlock();
		// Woken when the subscription comes back, or by the end of the holder's lease.
		assertThat(waiting.get(15, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.waiter.registry.engine().stats().subscribeAndCheck());
	}

	@Test
	void aSubscriptionWhoseConnectionIsResetWhileItSubscribesIsMadeAgain() throws Exception {
		// As when the primary dies under a subscription being made: Spring Data Redis's
		// container gives up on a subscription that failed other than by not connecting.
		try (TcpProxy proxy = TcpProxy.start(this.server);
				TestClient waiter = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						SetnxLockSettings.defaults(), List.of())) {
			LeasedLock warm = waiter.registry.obtain("warm-up");
			warm.lock();
			warm.unlock();
			proxy.resetOnRepliesTo("SUBSCRIBE", 1);
			await("subscribed after the reset").atMost(Duration.ofSeconds(20))
				.until(() -> waiter.registry.engine().stats().subscribeAndCheck());
			assertThat(proxy.lostReplies()).isEqualTo(1);
			LeasedLock held = this.holder.registry.obtain("after-reset");
			held.lock();
			Future<Long> waiting = this.threads.submit(
					() -> Acquisitions.acquiredAt(waiter.registry.obtain("after-reset"), Duration.ofSeconds(60), 0));
			Handshakes.awaitWaiterOnRedis(waiter.registry, "lock:after-reset");
			long releasedAt = System.nanoTime();
			held.unlock();
			assertThat(Duration.ofNanos(waiting.get(60, TimeUnit.SECONDS) - releasedAt))
				.as("woken by the release, not the lease's end")
				.isLessThan(Duration.ofSeconds(5));
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void afterARestartOfRedisTheSubscriptionComesBackAndAReleaseWakesTheWaiter(LockProtocol protocol) throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder().protocol(protocol).build();
		try (TestClient holder = new TestClient(this.server, settings);
				TestClient waiter = new TestClient(this.server, settings)) {
			// The waiter subscribes on its first wait.
			LeasedLock first = holder.registry.obtain("restarted");
			first.lock();
			assertThat(waiter.registry.obtain("restarted").tryLock(Duration.ofMillis(500))).isFalse();
			subscribed(waiter);
			first.unlock();
			// Every connection, the subscription's too, ends; the server comes back
			// empty.
			this.server.restart();
			LeasedLock held = holder.registry.obtain("restarted");
			await().pollInSameThread()
				.atMost(Duration.ofSeconds(30))
				.ignoreExceptionsInstanceOf(LockAccessException.class)
				.until(() -> held.tryLock(Duration.ofSeconds(1)));
			// The holder's lease (30 s by default) is longer than the test waits.
			Future<Long> waiting = this.threads
				.submit(() -> Acquisitions.acquiredAt(waiter.registry.obtain("restarted"), Duration.ofSeconds(60), 0));
			await("the subscription back on the restarted server").atMost(Duration.ofSeconds(30))
				.until(() -> ((Long) ((List<?>) this.server.execute("PUBSUB", "NUMSUB", settings.releaseChannel()))
					.get(1)) > 0);
			Handshakes.awaitWaiterOnRedis(waiter.registry, "lock:restarted");
			long releasedAt = System.nanoTime();
			held.unlock();
			long acquiredAt = waiting.get(60, TimeUnit.SECONDS);
			assertThat(Duration.ofNanos(acquiredAt - releasedAt)).as("woken by the release, not the lease's end")
				.isLessThan(Duration.ofSeconds(5));
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aReleaseThatKeepsTheKeyWakesAWaiterElsewhereWhenTheKeyEnds(LockProtocol protocol) throws Exception {
		try (TestClient holder = new TestClient(this.server, millis(protocol));
				TestClient waiter = new TestClient(this.server, millis(protocol))) {
			// Subscribed first: a waiter that relies on messages sleeps for the holder's
			// lease, where one that is still subscribing re-checks every few ms.
			subscribed(waiter);
			assertTheKeptKeyLetsTheWaiterIn(holder, waiter, "kept",
					() -> Handshakes.awaitWaiterOnRedis(waiter.registry, "lock:kept"));
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aReleaseThatKeepsTheKeyLetsAWaiterOfTheSameRegistryInWhenTheKeyEnds(LockProtocol protocol) throws Exception {
		try (TestClient client = new TestClient(this.server, millis(protocol))) {
			subscribed(client);
			// Handshake: the waiter queues for the key's slot in this JVM.
			assertTheKeptKeyLetsTheWaiterIn(client, client, "kept-here",
					() -> await().atMost(Duration.ofSeconds(10)).until(() -> {
						KeyState state = client.registry.engine().stats().keyState("lock:kept-here");
						return state != null && state.slotWaiters() > 0;
					}));
		}
	}

	/**
	 * The holder takes the key and releases it keeping it for 500 ms once the waiter
	 * waits for it (the handshake); the waiter gets it when the kept key ends, not when
	 * the holder's lease (30 s) would have.
	 */
	private void assertTheKeptKeyLetsTheWaiterIn(TestClient holder, TestClient waiter, String key, Runnable waiterWaits)
			throws Exception {
		Duration keep = Duration.ofMillis(500);
		LeasedLock held = holder.registry.obtain(key);
		held.lock();
		Future<Long> waiting = this.threads
			.submit(() -> Acquisitions.acquiredAt(waiter.registry.obtain(key), Duration.ofSeconds(20), 0));
		waiterWaits.run();
		long releasedAt = System.nanoTime();
		held.unlockKeepingFor(keep);
		long acquiredAt = waiting.get(30, TimeUnit.SECONDS);
		assertThat(acquiredAt).as("the waiter got the lock").isPositive();
		Duration took = Duration.ofNanos(acquiredAt - releasedAt);
		assertThat(took).as("not before the kept key ended").isGreaterThanOrEqualTo(keep);
		assertThat(took).as("when the kept key ended, not when the holder's lease would have")
			.isLessThan(keep.plusSeconds(5));
	}

	private static SetnxLockSettings millis(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).timestampUnit(TimestampUnit.MILLISECONDS).build();
	}

	@Test
	void aTimestampWaiterBehindARegistrysHolderWaitsForTheMessageInsteadOfPolling() throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.build();
		try (TestClient holder = new TestClient(this.server, settings);
				TestClient waiter = new TestClient(this.server, settings)) {
			subscribed(waiter);
			LeasedLock held = holder.registry.obtain("announced");
			held.lock();
			Future<Long> waiting = this.threads
				.submit(() -> Acquisitions.acquiredAt(waiter.registry.obtain("announced"), Duration.ofSeconds(20), 0));
			Handshakes.awaitWaiterOnRedis(waiter.registry, "lock:announced");
			long before = scriptCalls();
			// A window to count in, not a wait for anything: a waiter that
			// re-checked every 1 to 3 ms would ask a few hundred times in it.
			Thread.sleep(500);
			assertThat(scriptCalls() - before).as("scripts run while the waiter waited").isLessThanOrEqualTo(5);
			held.unlock();
			assertThat(waiting.get(30, TimeUnit.SECONDS)).as("the waiter got the lock").isPositive();
		}
	}

	/**
	 * Return how many scripts the server has run, by SHA1 or by body.
	 */
	private long scriptCalls() {
		String stats = (String) this.server.execute("INFO", "commandstats");
		long calls = 0;
		for (String line : stats.split("\r?\n")) {
			if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
				String field = line.substring(line.indexOf("calls=") + 6);
				calls += Long.parseLong(field.substring(0, field.indexOf(',')));
			}
		}
		return calls;
	}

	@Test
	void aTimestampWaiterSubscribesOnItsFirstWaitToo() throws Exception {
		SetnxLockSettings timestamp = SetnxLockSettings.builder().protocol(LockProtocol.TIMESTAMP).build();
		try (TestClient holder = new TestClient(this.server, timestamp);
				TestClient waiter = new TestClient(this.server, timestamp)) {
			LeasedLock held = holder.registry.obtain("timestamp");
			held.lock();
			LeasedLock lock = waiter.registry.obtain("timestamp");
			assertThat(lock.tryLock()).isFalse();
			assertThat(waiter.registry.engine().stats().listening()).isFalse();
			// A lone waiter, with no local handoff: its re-checks go on, and releases
			// wake it too.
			assertThat(lock.tryLock(Duration.ofMillis(200))).isFalse();
			await().atMost(Duration.ofSeconds(10)).until(() -> waiter.registry.engine().stats().listening());
			held.unlock();
		}
	}

	@Test
	void closingWhileTheSubscriptionHangsOnAStalledRedisDoesNotHang() throws Exception {
		TestClient stalled = new TestClient(this.server, SetnxLockSettings.defaults());
		this.server.pause();
		try {
			assertThat(stalled.registry.engine().stats().subscribeAndCheck()).isFalse();
			Thread.sleep(300);
			long start = System.nanoTime();
			stalled.close();
			// Bounded by the subscription's stop wait (5 s), not by the stalled Redis.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
		}
		finally {
			this.server.resume();
		}
	}

	private static void subscribed(TestClient client) {
		await().atMost(Duration.ofSeconds(10)).until(() -> client.registry.engine().stats().subscribeAndCheck());
	}

	private long acquireCalls() {
		// The acquire script is the only script these tests run while waiting: each
		// attempt on a held key is a plain SET that fails, then that script.
		return this.server.commandStat("evalsha", "calls") + this.server.commandStat("eval", "calls");
	}

}
