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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The watchdog, under both protocols against a real {@code redis-server}: live holders
 * keep their locks for many leases, dead ones lose them within one, renewals are batched,
 * and every way of losing a hold reaches the holder and the listeners.
 *
 * @author setnx-lock authors
 */
// Long (about 45 s): handed out early (CoresFirst).
@Order(1)
class LeaseRenewalTests {

	/**
	 * The watchdog's lease here: long enough that a renewal delayed by a busy 2-core
	 * machine (test classes run side by side) still lands in time, so that a lock that
	 * must survive does.
	 */
	private static final Duration LEASE = Duration.ofSeconds(1);

	/**
	 * What a loaded machine may add to a wake-up that is due when a lease ends.
	 */
	private static final Duration MARGIN = Duration.ofMillis(500);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final List<LockLostEvent> lost = new CopyOnWriteArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void close() throws Exception {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLiveHolderKeepsItsLockForFiveLeases(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		SetnxLockRegistry other = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("long-work", "work");
		lock.lock();
		long token = lock.fencingToken();
		long end = System.nanoTime() + LEASE.multipliedBy(5).toNanos();
		while (System.nanoTime() - end < 0) {
			assertThat(other.obtain("long-work").tryLock()).isFalse();
			Thread.sleep(LEASE.toMillis() / 2);
		}
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		assertThat(lock.fencingToken()).isEqualTo(token);
		// Three renewals a lease are due; two a lease at least show it is the watchdog,
		// not one long first lease, that kept the lock.
		assertThat(holder.engine().stats().renewals()).isGreaterThanOrEqualTo(10);
		lock.unlock();
		assertThat(this.lost).isEmpty();
		assertThat(holder.engine().stats().renewing()).isZero();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aDeadHolderIsReplacedWithinOneLease(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient dying = new TestClient(server, settings(protocol));
		SetnxLockRegistry other = client(server, settings(protocol)).registry;
		this.threads.submit(() -> dying.registry.obtain("dies").lock()).get(10, TimeUnit.SECONDS);
		Thread.sleep(LEASE.toMillis());
		// Its renewals stop and it never unlocks: what a crashed JVM leaves behind.
		dying.close();
		LeasedLock lock = other.obtain("dies");
		long start = System.nanoTime();
		assertThat(lock.tryLock(LEASE.multipliedBy(5))).isTrue();
		// The key's last renewal set it to live one lease; the waiter wakes when it ends.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LEASE.plus(MARGIN));
		lock.unlock();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void anExplicitLeaseIsNeverRenewed(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("explicit");
		assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
		assertThat(holder.engine().stats().renewing()).isZero();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock)
			.withMessageContaining("its lease of");
		assertThat(awaitLost()).singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.LEASE_ENDED));
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void renewalsStopAfterTheMaxHold(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server,
				settings(protocol).toBuilder().maxHold(LEASE.multipliedBy(2)).build()).registry;
		LeasedLock lock = holder.obtain("capped", "capped-work");
		lock.lock();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThat(holder.engine().stats().renewals()).isPositive();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(awaitLost()).singleElement().satisfies((event) -> {
			assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.LEASE_ENDED);
			assertThat(event.key()).isEqualTo("capped");
			assertThat(event.name()).isEqualTo("capped-work");
		});
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aRenewalThatFindsTheKeyTakenLosesTheHoldAtOnce(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = client(server, settings(protocol));
		LeasedLock lock = holder.registry.obtain("stolen", "stolen-work");
		lock.lock();
		long token = lock.fencingToken();
		steal(server, protocol, holder, "stolen");
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.lost.isEmpty());
		assertThat(this.lost).singleElement().satisfies((event) -> {
			assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_REJECTED);
			assertThat(event.name()).isEqualTo("stolen-work");
			assertThat(event.fencingToken()).isEqualTo(token);
			assertThat(event.holder()).isEqualTo(Thread.currentThread().getName());
		});
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::checkHeld)
			.withMessageContaining("a renewal found it taken over or deleted");
		// Another thread of this JVM gets the slot back at once, and waits in Redis.
		Future<Boolean> local = this.threads.submit(() -> holder.registry.obtain("stolen").tryLock());
		assertThat(local.get(10, TimeUnit.SECONDS)).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(holder.redis.hasKey("lock:stolen")).isTrue();
		assertThat(this.lost).hasSize(1);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aReentrantHoldThatIsLostIsReportedOnceAndEachUnlockSaysSo(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = client(server, settings(protocol));
		LeasedLock lock = holder.registry.obtain("reentered");
		lock.lock();
		lock.lock();
		assertThat(lock.holdCount()).isEqualTo(2);
		steal(server, protocol, holder, "reentered");
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.lost.isEmpty());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		// The inner unlock hears of the loss, and so does the outer one, which ends the
		// hold here; the thief's key stays.
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(lock.holdCount()).isOne();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(lock.holdCount()).isZero();
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.isNotInstanceOf(LockLostException.class);
		assertThat(this.lost).as("one hold, lost once")
			.singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_REJECTED));
		assertThat(holder.redis.hasKey("lock:reentered")).isTrue();
		assertThat(holder.registry.localKeyCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void interruptOnLossStopsTheHoldersBlockingWork(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = client(server, settings(protocol));
		CountDownLatch holding = new CountDownLatch(1);
		Future<Throwable> work = this.threads.submit(() -> {
			LeasedLock lock = holder.registry.obtain("interrupted");
			lock.lock();
			lock.interruptOnLoss();
			holding.countDown();
			return workUntilInterrupted(lock);
		});
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
		steal(server, protocol, holder, "interrupted");
		assertThat(work.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void interruptOnLossAlsoWatchesAnExplicitLease(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = client(server, settings(protocol));
		Future<Throwable> work = this.threads.submit(() -> {
			LeasedLock lock = holder.registry.obtain("short");
			assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
			lock.interruptOnLoss();
			return workUntilInterrupted(lock);
		});
		assertThat(work.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		assertThat(awaitLost()).singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.LEASE_ENDED));
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void renewalsOfManyHoldsShareOneRoundTripPerTick(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		int holds = 50;
		List<LeasedLock> locks = new ArrayList<>();
		for (int i = 0; i < holds; i++) {
			LeasedLock lock = holder.obtain("many:" + i);
			lock.lock();
			locks.add(lock);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> holder.engine().stats().renewals() >= 3L * holds);
		long batches = holder.engine().stats().renewalBatches();
		long renewals = holder.engine().stats().renewals();
		assertThat(renewals / batches).as("renewals per round trip").isGreaterThanOrEqualTo(holds / 2);
		locks.forEach(LeasedLock::unlock);
		assertThat(this.lost).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void renewalSurvivesARestartOfAPersistentRedisThatKeptTheKey(LockProtocol protocol) throws Exception {
		RedisServer server = server("--appendonly", "yes", "--appendfsync", "always");
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("persistent");
		lock.lock();
		server.restart();
		// The restarted Redis has the key but not the scripts: renewals load them again.
		long renewed = holder.engine().stats().renewals();
		await().atMost(Duration.ofSeconds(10)).until(() -> holder.engine().stats().renewals() >= renewed + 3);
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(this.lost).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aRestartThatLostTheKeyIsReportedAsALoss(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("forgotten");
		lock.lock();
		server.restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.lost.isEmpty());
		assertThat(this.lost).singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_REJECTED));
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void renewalsThatCannotReachRedisLoseTheHoldAtItsDeadline(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = new TestClient(server, settings(protocol), Duration.ofMillis(100), List.of(listener()));
		this.closeables.add(holder);
		LeasedLock lock = holder.registry.obtain("unreachable");
		lock.lock();
		server.stop();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.lost.isEmpty());
		assertThat(this.lost).singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_FAILED));
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aRenewalAnsweredAfterTheDeadlineDoesNotBringTheHoldBack(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("late");
		lock.lock();
		// Redis answers nothing across the holder's deadline; the renewal sent before it
		// is answered after it.
		server.pause();
		try {
			await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
			Thread.sleep(LEASE.toMillis() / 2);
		}
		finally {
			server.resume();
		}
		Thread.sleep(LEASE.toMillis());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(awaitLost()).singleElement()
			.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_FAILED));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aThreadThatDiesHoldingALockStopsBeingRenewed(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		TestClient holder = client(server, settings(protocol));
		Thread dying = new Thread(() -> holder.registry.obtain("orphan").lock());
		dying.start();
		dying.join(10_000);
		assertThat(dying.isAlive()).isFalse();
		LeasedLock lock = holder.registry.obtain("orphan");
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(lock::tryLock);
		lock.unlock();
		assertThat(holder.registry.engine().stats().renewing()).isZero();
		assertThat(holder.registry.localKeyCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void askingForAnInterruptTwiceWatchesTheDeadlineOnce(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		SetnxLockRegistry holder = client(server, settings(protocol)).registry;
		LeasedLock lock = holder.obtain("asked-often");
		lock.lock();
		int before = holder.engine().stats().scheduledTasks();
		for (int i = 0; i < 1000; i++) {
			lock.interruptOnLoss();
		}
		assertThat(holder.engine().stats().scheduledTasks()).isLessThanOrEqualTo(before + 1);
		lock.unlock();
		assertThat(Thread.interrupted()).isFalse();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aFailingListenerDoesNotStopTheOthersNorTheUnlock(LockProtocol protocol) throws Exception {
		RedisServer server = server();
		LockListener failing = new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				throw new IllegalStateException("listener failed");
			}

		};
		TestClient holder = new TestClient(server, settings(protocol), Duration.ofSeconds(2),
				List.of(failing, listener()));
		this.closeables.add(holder);
		LeasedLock lock = holder.registry.obtain("listened");
		assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
		Thread.sleep(LEASE.multipliedBy(2).toMillis());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(this.lost).hasSize(1);
		assertThat(holder.registry.localKeyCount()).isZero();
	}

	/**
	 * Block under a lost lock until interrupted, then unlock it.
	 * @return the interrupt, or {@code null} if none came
	 */
	private static Throwable workUntilInterrupted(LeasedLock lock) {
		try {
			Thread.sleep(30_000);
			return null;
		}
		catch (InterruptedException ex) {
			return ex;
		}
		finally {
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		}
	}

	/**
	 * Delete a held lock's key behind its holder's back (as a restart of Redis without
	 * persistence would) and let another client take the lock.
	 */
	private void steal(RedisServer server, LockProtocol protocol, TestClient holder, String key) throws Exception {
		holder.redis.delete("lock:" + key);
		SetnxLockRegistry thief = client(server, settings(protocol)).registry;
		this.threads.submit(() -> {
			thief.obtain(key).lock();
			return null;
		}).get(10, TimeUnit.SECONDS);
	}

	private SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.leaseTime(LEASE)
			.build();
	}

	private RedisServer server(String... arguments) {
		RedisServer server = RedisServer.start(arguments);
		this.closeables.add(server);
		return server;
	}

	private TestClient client(RedisServer server, SetnxLockSettings settings) {
		TestClient client = new TestClient(server, settings, Duration.ofSeconds(2), List.of(listener()));
		this.closeables.add(client);
		// Connected now: a lease this short could end while a first command connects.
		client.redis.hasKey("warm-up");
		return client;
	}

	/**
	 * Wait for a lost lock to be reported, which may come from the registry's events
	 * thread, and return what was reported.
	 */
	private List<LockLostEvent> awaitLost() {
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.lost.isEmpty());
		return this.lost;
	}

	private LockListener listener() {
		return new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				LeaseRenewalTests.this.lost.add(event);
			}

		};
	}

}
