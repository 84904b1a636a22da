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
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * The behaviour every protocol must show, run against a real {@code redis-server}.
 * Subclasses choose the protocol; the tests are the same.
 *
 * @author setnx-lock authors
 */
abstract class AbstractLockContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/** This class's server: subclasses run side by side, each on a server of its own. */
	private RedisServer server;

	private TestClient first;

	private TestClient second;

	private ExecutorService threads;

	/**
	 * Return the settings under test, protocol included.
	 * @return the settings
	 */
	protected abstract SetnxLockSettings settings();

	/**
	 * Return a lease short enough to wait out in a test, and long enough to work within.
	 * @return the lease
	 */
	protected Duration shortLease() {
		return Duration.ofMillis(300);
	}

	/**
	 * Return a client whose registry has the settings under test; each test has two. The
	 * tests check Redis through the server's own connection, not through this client, so
	 * a client may sign in as a user with fewer rights.
	 * @param server the server
	 * @return a new client, which the test closes
	 */
	protected TestClient newClient(RedisServer server) {
		return new TestClient(server, settings());
	}

	/**
	 * Set the server up for the clients: called before each test's clients are created,
	 * and again after a test restarts the server, which then has lost everything but its
	 * command-line configuration.
	 * @param server the server
	 */
	protected void prepareServer(RedisServer server) {
	}

	/**
	 * Check the server once a test's clients are closed, so that what they sent while
	 * closing counts too.
	 * @param server the server
	 */
	protected void clientsClosed(RedisServer server) {
	}

	@BeforeEach
	void connect(RedisServer server) {
		this.server = server;
		prepareServer(this.server);
		this.first = newClient(this.server);
		this.second = newClient(this.server);
		this.threads = Executors.newCachedThreadPool();
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.first.close();
		this.second.close();
		clientsClosed(this.server);
	}

	@Test
	void aClosedRegistryRefusesAcquisitionsBeforeWritingAnything() throws Exception {
		TestClient client = newClient(this.server);
		try {
			LeasedLock lock = client.registry.obtain("after-close");
			client.registry.close();
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::tryLock)
				.withMessageContaining("'after-close'")
				.withMessageContaining("closed");
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(10)));
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::lock);
			assertThat(exists(settings().keyPrefix() + "after-close")).isFalse();
			assertThat(client.registry.localKeyCount()).isZero();
		}
		finally {
			client.close();
		}
	}

	@Test
	void scriptsThatRedisForgotAreSentAgain() throws InterruptedException {
		LeasedLock lock = this.first.registry.obtain("forgotten-scripts");
		assertThat(lock.tryLock()).isTrue();
		this.server.execute("SCRIPT", "FLUSH");
		lock.unlock();
		assertThat(exists(settings().keyPrefix() + "forgotten-scripts")).isFalse();
		this.server.execute("SCRIPT", "FLUSH");
		assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		assertThat(exists(settings().keyPrefix() + "forgotten-scripts")).isTrue();
		lock.unlock();
	}

	@Test
	void tryLockWhenFreeThenHoldsItAndUnlockDeletesTheKey() {
		LeasedLock lock = this.first.registry.obtain("free");
		assertThat(lock.tryLock()).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		assertThat(lock.isLocked()).isTrue();
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThat(exists(settings().keyPrefix() + "free")).isTrue();
		lock.unlock();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.isLocked()).isFalse();
		assertThat(exists(settings().keyPrefix() + "free")).isFalse();
		assertThat(this.first.registry.localKeyCount()).isZero();
	}

	@Test
	void tryLockWhenHeldElsewhereThenFalse() throws Exception {
		holdInOtherThread(this.second.registry.obtain("held"), Duration.ofSeconds(30));
		LeasedLock lock = this.first.registry.obtain("held");
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.tryLock(Duration.ofMillis(200))).isFalse();
		assertThat(lock.tryLock(0, TimeUnit.SECONDS)).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.isLocked()).isTrue();
		assertThat(this.first.registry.localKeyCount()).isZero();
	}

	@Test
	void tryLockWhenHeldByAnotherThreadOfTheSameRegistryThenFalse() throws Exception {
		holdInOtherThread(this.first.registry.obtain("local"), Duration.ofSeconds(30));
		LeasedLock lock = this.first.registry.obtain("local");
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
	}

	@Test
	void timedTryLockWhenHolderReleasesThenAcquires() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		this.threads.submit(() -> {
			LeasedLock other = this.second.registry.obtain("handoff");
			other.lock();
			held.countDown();
			Handshakes.awaitWaiterOnRedis(this.first.registry, settings().keyPrefix() + "handoff");
			other.unlock();
			return null;
		});
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		LeasedLock lock = this.first.registry.obtain("handoff");
		assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
		lock.unlock();
	}

	@Test
	void lockWaitsUntilTheHolderReleases() throws Exception {
		LeasedLock holder = this.first.registry.obtain("blocking");
		holder.lock();
		AtomicReference<Boolean> heldByWaiter = new AtomicReference<>();
		Future<?> waiter = this.threads.submit(() -> {
			LeasedLock lock = this.second.registry.obtain("blocking");
			lock.lock();
			heldByWaiter.set(lock.isHeldByCurrentThread());
			lock.unlock();
		});
		Handshakes.awaitWaiterOnRedis(this.second.registry, settings().keyPrefix() + "blocking");
		assertThat(waiter.isDone()).isFalse();
		holder.unlock();
		waiter.get(10, TimeUnit.SECONDS);
		assertThat(heldByWaiter.get()).isTrue();
	}

	@Test
	void lockInterruptiblyWhenInterruptedThenThrowsAndLeavesNothingBehind() throws Exception {
		holdInOtherThread(this.second.registry.obtain("interrupt"), Duration.ofSeconds(30));
		AtomicReference<Throwable> failure = new AtomicReference<>();
		CountDownLatch started = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			LeasedLock lock = this.first.registry.obtain("interrupt");
			started.countDown();
			try {
				lock.lockInterruptibly();
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		waiter.start();
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		Handshakes.awaitWaiterOnRedis(this.first.registry, settings().keyPrefix() + "interrupt");
		waiter.interrupt();
		waiter.join(5000);
		assertThat(waiter.isAlive()).isFalse();
		assertThat(failure.get()).isInstanceOf(InterruptedException.class);
		assertThat(this.first.registry.localKeyCount()).isZero();
	}

	@Test
	void lockKeepsTheInterruptForLater() throws Exception {
		LeasedLock lock = this.first.registry.obtain("uninterruptible");
		Thread.currentThread().interrupt();
		try {
			lock.lock();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
			lock.unlock();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void anInterruptedHolderStillReleasesTheKey() {
		LeasedLock lock = this.first.registry.obtain("interrupted-holder");
		lock.lock();
		Thread.currentThread().interrupt();
		try {
			assertThat(lock.isLocked()).isTrue();
			lock.unlock();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(exists(settings().keyPrefix() + "interrupted-holder")).isFalse();
	}

	@Test
	void interruptibleCallsOfAnInterruptedThreadThrowAtOnce() {
		LeasedLock lock = this.first.registry.obtain("interrupted-caller");
		Thread.currentThread().interrupt();
		try {
			assertThatExceptionOfType(InterruptedException.class).isThrownBy(lock::lockInterruptibly);
			Thread.currentThread().interrupt();
			assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)));
		}
		finally {
			Thread.interrupted();
		}
		assertThat(lock.isLocked()).isFalse();
		assertThat(this.first.registry.localKeyCount()).isZero();
	}

	@Test
	void unlockWhenNobodyHoldsThenIllegalMonitorState() {
		LeasedLock lock = this.first.registry.obtain("nobody");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'nobody'");
	}

	@Test
	void unlockByAnotherThreadThenIllegalMonitorStateAndTheLockStaysHeld() throws Exception {
		LeasedLock lock = this.first.registry.obtain("owned");
		lock.lock();
		Future<Throwable> other = this.threads.submit(() -> {
			try {
				this.first.registry.obtain("owned").unlock();
				return null;
			}
			catch (Throwable ex) {
				return ex;
			}
		});
		assertThat(other.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalMonitorStateException.class)
			.isNotInstanceOf(LockLostException.class);
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		assertThat(lock.isLocked()).isTrue();
		lock.unlock();
	}

	@Test
	void reentrantHoldsReleaseTheKeyWhenTheCountReturnsToZero() throws Exception {
		LeasedLock lock = this.first.registry.obtain("reentrant");
		LeasedLock sameKey = this.first.registry.obtain("reentrant");
		lock.lock();
		assertThat(lock.tryLock()).isTrue();
		assertThat(sameKey.tryLock(Duration.ofSeconds(1))).isTrue();
		assertThat(lock.holdCount()).isEqualTo(3);
		long token = lock.fencingToken();
		assertThat(sameKey.fencingToken()).isEqualTo(token);
		lock.unlock();
		sameKey.unlock();
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThat(this.second.registry.obtain("reentrant").isLocked()).isTrue();
		lock.unlock();
		assertThat(lock.holdCount()).isZero();
		assertThat(this.second.registry.obtain("reentrant").isLocked()).isFalse();
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock);
	}

	@Test
	void unlockKeepingForFreesTheThreadButKeepsTheLockUntilTheTimeIsUp() throws Exception {
		LeasedLock lock = this.first.registry.obtain("kept");
		lock.lock();
		lock.unlockKeepingFor(shortLease());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.holdCount()).isZero();
		assertThat(this.first.registry.localKeyCount()).isZero();
		assertThat(lock.isLocked()).isTrue();
		LeasedLock elsewhere = this.second.registry.obtain("kept");
		assertThat(elsewhere.tryLock()).isFalse();
		assertThat(lock.tryLock()).isFalse();
		assertThat(elsewhere.tryLock(Duration.ofSeconds(10))).isTrue();
		elsewhere.unlock();
		assertThat(lock.isLocked()).isFalse();
	}

	@Test
	void unlockKeepingForRejectsABadTimeAndKeepsTheHold() {
		LeasedLock lock = this.first.registry.obtain("kept-bad");
		lock.lock();
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> lock.unlockKeepingFor(Duration.ZERO))
			.withMessage("keep must be positive, but was PT0S");
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> lock.unlockKeepingFor(Duration.ofSeconds(1)));
	}

	@Test
	void newConditionIsNotSupported() {
		LeasedLock lock = this.first.registry.obtain("condition");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition);
	}

	@Test
	void manyThreadsInTwoRegistriesNeverHoldTogether() throws Exception {
		int threadsPerRegistry = 4;
		int iterations = 150;
		CriticalSection section = new CriticalSection();
		List<Future<?>> workers = new ArrayList<>();
		for (SetnxLockRegistry registry : List.of(this.first.registry, this.second.registry)) {
			for (int t = 0; t < threadsPerRegistry; t++) {
				workers.add(this.threads.submit(() -> {
					LeasedLock lock = registry.obtain("counter");
					for (int i = 0; i < iterations; i++) {
						section.enterUnder(lock);
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(120, TimeUnit.SECONDS);
		}
		assertThat(section.overlaps()).isZero();
		assertThat(section.entries()).isEqualTo(2 * threadsPerRegistry * iterations);
		assertThat(this.first.registry.localKeyCount()).isZero();
		assertThat(this.second.registry.localKeyCount()).isZero();
	}

	@Test
	void whenTheHolderLeaseEndsThenAnotherClientTakesOver() throws Exception {
		long firstToken = holdInOtherThread(this.second.registry.obtain("takeover"), shortLease());
		LeasedLock lock = this.first.registry.obtain("takeover");
		assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(firstToken);
		lock.unlock();
	}

	@Test
	void unlockAfterTakeoverThrowsLockLostAndKeepsTheNewHoldersKey() throws Exception {
		LeasedLock lost = this.first.registry.obtain("lost");
		assertThat(lost.tryLock(Duration.ZERO, shortLease())).isTrue();
		Future<?> taker = this.threads.submit(() -> {
			LeasedLock lock = this.second.registry.obtain("lost");
			assertThat(lock.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(30))).isTrue();
			return null;
		});
		taker.get(15, TimeUnit.SECONDS);
		assertThat(lost.isHeldByCurrentThread()).isFalse();
		assertThat(lost.holdCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::fencingToken);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::unlock)
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("lost"));
		assertThat(lost.holdCount()).isZero();
		assertThat(exists(settings().keyPrefix() + "lost")).isTrue();
		assertThat(lost.isLocked()).isTrue();
	}

	@Test
	void unlockAfterTheLeaseEndedWithoutTakeoverThrowsLockLost() throws Exception {
		LeasedLock lock = this.first.registry.obtain("expired");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(this.first.registry.localKeyCount()).isZero();
	}

	@Test
	void reacquiringALostHoldThrowsLockLost() throws Exception {
		LeasedLock lock = this.first.registry.obtain("reentry-lost");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::tryLock);
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
	}

	@Test
	void fencingTokensIncreaseAcrossHoldersAndAcrossARedisRestart() throws Exception {
		long last = 0;
		for (int i = 0; i < 40; i++) {
			SetnxLockRegistry registry = (i % 2 == 0) ? this.first.registry : this.second.registry;
			LeasedLock lock = registry.obtain("fenced");
			lock.lock();
			long token = lock.fencingToken();
			assertThat(token).isGreaterThan(last);
			last = token;
			lock.unlock();
		}
		this.server.restart();
		prepareServer(this.server);
		long beforeRestart = last;
		LeasedLock lock = this.first.registry.obtain("fenced");
		await().pollInSameThread()
			.atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> lock.tryLock(Duration.ofSeconds(1)));
		assertThat(lock.fencingToken()).isGreaterThan(beforeRestart);
		lock.unlock();
	}

	@Test
	void fencingCounterKeySharesTheLockKeysSlotAndExpires() {
		LeasedLock lock = this.first.registry.obtain("slot");
		lock.lock();
		String fenceKey = "{" + settings().keyPrefix() + "slot}:fence";
		// The token protocol writes the counter at the hold's first fencingToken() only;
		// the timestamp protocol draws with the acquisition.
		assertThat(exists(fenceKey)).isEqualTo(settings().protocol() == LockProtocol.TIMESTAMP);
		assertThat(lock.fencingToken()).isPositive();
		assertThat(exists(fenceKey)).isTrue();
		assertThat((Long) this.server.execute("PTTL", fenceKey)).isPositive();
		lock.unlock();
		try (RedisServer cluster = RedisServer.start("--cluster-enabled", "yes")) {
			assertThat(cluster.execute("CLUSTER", "KEYSLOT", fenceKey))
				.isEqualTo(cluster.execute("CLUSTER", "KEYSLOT", settings().keyPrefix() + "slot"));
		}
	}

	/**
	 * Take the lock in a new thread and keep it, without unlocking, until its lease ends.
	 * @return the fencing token of that hold
	 */
	private long holdInOtherThread(LeasedLock lock, Duration lease) throws Exception {
		return this.threads.submit(() -> {
			assertThat(lock.tryLock(Duration.ofSeconds(10), lease)).isTrue();
			return lock.fencingToken();
		}).get(15, TimeUnit.SECONDS);
	}

	/**
	 * Whether a key exists, read through the server's own connection.
	 */
	private boolean exists(String key) {
		return Long.valueOf(1).equals(this.server.execute("EXISTS", key));
	}

}
