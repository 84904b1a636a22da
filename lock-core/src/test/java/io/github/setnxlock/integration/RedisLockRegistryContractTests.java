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
package io.github.setnxlock.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;

import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.support.locks.DistributedLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * Spring Integration's {@code RedisLockRegistryTests} (7.1.x), case by case, against
 * {@link SetnxIntegrationLockRegistry}: each test names the case it follows. A Spring
 * Integration registry is one {@link SetnxLockRegistry} here (its own client, as each
 * {@code RedisLockRegistry} is); its {@code expireAfter} without a renewal scheduler is a
 * registry whose lease is not renewed. Where a case reads the registry's cache to see
 * that a lock was released, these read Redis instead. The cases about the cache's
 * capacity, the executor and the fallback from conditional commands are not followed (see
 * docs/migrating-from-spring-integration.md).
 *
 * @author setnx-lock authors
 */
class RedisLockRegistryContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<SetnxLockRegistry> registries = new ArrayList<>();

	private final List<ExecutorService> executors = new ArrayList<>();

	@AfterEach
	void disconnect() {
		this.executors.forEach(ExecutorService::shutdownNow);
		this.registries.forEach(SetnxLockRegistry::close);
		this.factories.forEach(RedisConnections::destroy);
	}

	/** Follows {@code testLock}. */
	@Test
	void aLockTakenAndReleasedRepeatedlyHoldsItsKeyOnlyWhileLocked() throws Exception {
		takenAndReleasedRepeatedly(Lock::lock);
	}

	private void takenAndReleasedRepeatedly(Locking locking) throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		for (int i = 0; i < 10; i++) {
			Lock lock = registry.obtain("foo");
			locking.lock(lock);
			try {
				assertThat(exists("foo")).isTrue();
			}
			finally {
				lock.unlock();
			}
			assertThat(exists("foo")).isFalse();
		}
	}

	/** Follows {@code testLockWithCustomTtl}. */
	@Test
	void lockWithATimeToLiveHoldsPastTheRegistrysLease() throws Exception {
		heldPastTheRegistrysLease((lock) -> {
			lock.lock(Duration.ofSeconds(3));
			return true;
		});
	}

	/** Follows {@code testTryLockWithCustomTtl}. */
	@Test
	void tryLockWithATimeToLiveHoldsPastTheRegistrysLease() throws Exception {
		heldPastTheRegistrysLease((lock) -> lock.tryLock(Duration.ofMillis(100), Duration.ofSeconds(3)));
	}

	private void heldPastTheRegistrysLease(TakingWithATimeToLive taking) throws Exception {
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofMillis(100));
		for (int i = 0; i < 3; i++) {
			DistributedLock lock = registry.obtain("foo");
			assertThat(taking.take(lock)).isTrue();
			try {
				Thread.sleep(300);
				assertThat(exists("foo")).isTrue();
			}
			finally {
				assertThatNoException().isThrownBy(lock::unlock);
			}
		}
		assertThat(exists("foo")).isFalse();
	}

	@FunctionalInterface
	private interface TakingWithATimeToLive {

		boolean take(DistributedLock lock) throws InterruptedException;

	}

	/** Follows {@code testUnlockAfterLockStatusHasBeenExpired}. */
	@Test
	void unlockAfterTheLeaseEndedThrowsConcurrentModificationExceptionCausedByTheLoss() throws Exception {
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofMillis(100));
		Lock lock = registry.obtain("foo");
		lock.lock();
		Thread.sleep(300);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withCauseInstanceOf(LockLostException.class);
	}

	/** Follows {@code testLockInterruptibly}. */
	@Test
	void aLockTakenInterruptiblyAndReleasedRepeatedlyHoldsItsKeyOnlyWhileLocked() throws Exception {
		takenAndReleasedRepeatedly(Lock::lockInterruptibly);
	}

	/** Follows {@code testReentrantLock}. */
	@Test
	void obtainGivesTheHandleInUseAndItIsReentrant() throws Exception {
		takenTwiceThroughTheHandleInUse(Lock::lock);
	}

	/** Follows {@code testReentrantLockInterruptibly}. */
	@Test
	void obtainGivesTheHandleInUseAndItIsReentrantInterruptibly() throws Exception {
		takenTwiceThroughTheHandleInUse(Lock::lockInterruptibly);
	}

	private void takenTwiceThroughTheHandleInUse(Locking locking) throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		for (int i = 0; i < 10; i++) {
			Lock outer = registry.obtain("foo");
			locking.lock(outer);
			try {
				Lock inner = registry.obtain("foo");
				assertThat(inner).isSameAs(outer);
				locking.lock(inner);
				inner.unlock();
				assertThat(exists("foo")).isTrue();
			}
			finally {
				outer.unlock();
			}
		}
		assertThat(exists("foo")).isFalse();
	}

	@FunctionalInterface
	private interface Locking {

		void lock(Lock lock) throws InterruptedException;

	}

	/** Follows {@code testTwoLocks}. */
	@Test
	void twoKeysAreTwoHandlesAndOneThreadHoldsBoth() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		for (int i = 0; i < 10; i++) {
			Lock foo = registry.obtain("foo");
			foo.lockInterruptibly();
			try {
				Lock bar = registry.obtain("bar");
				assertThat(bar).isNotSameAs(foo).isNotEqualTo(foo);
				bar.lockInterruptibly();
				assertThat(exists("foo")).isTrue();
				assertThat(exists("bar")).isTrue();
				bar.unlock();
			}
			finally {
				foo.unlock();
			}
		}
		assertThat(exists("foo")).isFalse();
		assertThat(exists("bar")).isFalse();
	}

	/** Follows {@code testTwoThreadsSecondFailsToGetLock}. */
	@Test
	void aSecondThreadDoesNotGetTheLockAndItsUnlockSaysItDoesNotOwnIt() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		Lock lock = registry.obtain("foo");
		lock.lockInterruptibly();
		AtomicBoolean locked = new AtomicBoolean(true);
		Future<RuntimeException> other = executor().submit(() -> {
			Lock same = registry.obtain("foo");
			locked.set(same.tryLock(200, TimeUnit.MILLISECONDS));
			try {
				same.unlock();
				return null;
			}
			catch (RuntimeException ex) {
				return ex;
			}
		});
		RuntimeException thrown = other.get(10, TimeUnit.SECONDS);
		lock.unlock();
		assertThat(locked).isFalse();
		assertThat(thrown).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("You do not own lock at")
			.hasCauseInstanceOf(IllegalMonitorStateException.class);
		assertThat(exists("foo")).isFalse();
	}

	/** Follows {@code testTwoThreads}. */
	@Test
	void aSecondThreadOfTheRegistryWaitsUntilTheFirstUnlocks() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		secondThreadWaitsForTheFirst(registry, registry);
	}

	/** Follows {@code testTwoThreadsDifferentRegistries}. */
	@Test
	void aThreadOfAnotherRegistryWaitsUntilTheFirstUnlocks() throws Exception {
		secondThreadWaitsForTheFirst(renewing(), renewing());
	}

	private void secondThreadWaitsForTheFirst(SetnxIntegrationLockRegistry first, SetnxIntegrationLockRegistry second)
			throws Exception {
		Lock lock = first.obtain("foo");
		lock.lockInterruptibly();
		CountDownLatch waiting = new CountDownLatch(1);
		AtomicBoolean locked = new AtomicBoolean();
		Future<Boolean> other = executor().submit(() -> {
			Lock same = second.obtain("foo");
			waiting.countDown();
			same.lockInterruptibly();
			try {
				locked.set(true);
				return exists("foo");
			}
			finally {
				same.unlock();
			}
		});
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		// Long enough for the waiter to have taken the lock if it were going to.
		Thread.sleep(300);
		assertThat(locked).isFalse();
		lock.unlock();
		assertThat(other.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locked).isTrue();
		assertThat(exists("foo")).isFalse();
	}

	/** Follows {@code testTwoThreadsWrongOneUnlocks}. */
	@Test
	void unlockByAThreadThatDoesNotHoldTheLockThrowsIllegalStateExceptionAndReleasesNothing() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		Lock lock = registry.obtain("foo");
		lock.lockInterruptibly();
		Future<RuntimeException> other = executor().submit(() -> {
			try {
				lock.unlock();
				return null;
			}
			catch (RuntimeException ex) {
				return ex;
			}
		});
		RuntimeException thrown = other.get(10, TimeUnit.SECONDS);
		assertThat(thrown).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("You do not own lock at")
			.hasCauseInstanceOf(IllegalMonitorStateException.class);
		assertThat(exists("foo")).isTrue();
		lock.unlock();
		assertThat(exists("foo")).isFalse();
	}

	/** Follows {@code testExpireTwoRegistries}. */
	@Test
	void tryLockOnAHoldWhoseLeaseEndedAnswersFalseWhileAnotherRegistryHoldsTheKey() throws Exception {
		SetnxIntegrationLockRegistry first = expiring(Duration.ofSeconds(1));
		// Its hold must outlast the rest of the test.
		SetnxIntegrationLockRegistry second = renewing();
		Lock lock = first.obtain("foo");
		Lock other = second.obtain("foo");
		assertThat(lock.tryLock()).isTrue();
		assertThat(other.tryLock()).isFalse();
		awaitExpired("foo");
		assertThat(other.tryLock()).isTrue();
		assertThat(lock.tryLock()).isFalse();
		// The lost hold is still owed an unlock(), which tells the loss.
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withCauseInstanceOf(LockLostException.class);
		assertThat(exists("foo")).isTrue();
		other.unlock();
	}

	/** Follows {@code testExceptionOnExpire}. */
	@Test
	void unlockOfAHoldWhoseKeyExpiredSaysTheLockWasReleasedInTheStore() throws Exception {
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofMillis(50));
		Lock lock = registry.obtain("foo");
		assertThat(lock.tryLock()).isTrue();
		awaitExpired("foo");
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("Lock was released in the store due to expiration.")
			.withCauseInstanceOf(LockLostException.class);
	}

	/** Follows {@code testRenewalOnExpire}: the registry's watchdog is the renewal. */
	@Test
	void aHoldRenewedByTheRegistryOutlastsItsLeaseAndUnlocks() throws Exception {
		SetnxIntegrationLockRegistry registry = new SetnxIntegrationLockRegistry(registry(Duration.ofSeconds(1), true));
		Lock lock = registry.obtain("foo");
		assertThat(lock.tryLock()).isTrue();
		Thread.sleep(2000);
		assertThat(exists("foo")).isTrue();
		assertThatNoException().isThrownBy(lock::unlock);
	}

	/** Follows {@code testEquals}. */
	@Test
	void handlesAreEqualForOneKeyOfOneRegistryAndOtherwiseNot() {
		SetnxIntegrationLockRegistry first = renewing();
		SetnxIntegrationLockRegistry second = renewing();
		// Another registryKey of Spring Integration's is another key prefix here.
		SetnxIntegrationLockRegistry elsewhere = new SetnxIntegrationLockRegistry(
				registry(SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(10)).keyPrefix("other:").build()));
		Lock one = first.obtain("foo");
		Lock two = first.obtain("foo");
		assertThat(two).isEqualTo(one).hasSameHashCodeAs(one);
		one.lock();
		two.lock();
		assertThat(two).isEqualTo(one);
		one.unlock();
		two.unlock();
		assertThat(two).isEqualTo(one);

		Lock ours = first.obtain("foo");
		Lock theirs = second.obtain("foo");
		assertThat(theirs).isNotEqualTo(ours);
		ours.lock();
		assertThat(theirs.tryLock()).isFalse();
		ours.unlock();

		Lock prefixed = elsewhere.obtain("foo");
		assertThat(prefixed).isNotEqualTo(ours);
		ours.lock();
		prefixed.lock();
		ours.unlock();
		prefixed.unlock();
	}

	/** Follows {@code testExpireNotChanged}. */
	@Test
	void aFailedTryLockOfAnotherThreadLeavesTheHoldersExpiryAlone() throws Exception {
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofSeconds(10));
		Lock lock = registry.obtain("foo");
		lock.lock();
		long before = pttl("foo");
		Future<Boolean> other = executor().submit(() -> registry.obtain("foo").tryLock());
		assertThat(other.get(10, TimeUnit.SECONDS)).isFalse();
		assertThat(pttl("foo")).isPositive().isLessThanOrEqualTo(before);
		lock.unlock();
	}

	/** Follows {@code twoRedisLockRegistryTest}. */
	@Test
	void twoRegistriesTakeTheLockOneAfterTheOther() throws Exception {
		Lock first = renewing().obtain("test-1");
		Lock second = renewing().obtain("test-1");
		CountDownLatch firstDone = new CountDownLatch(1);
		CompletableFuture<Void> one = CompletableFuture.runAsync(() -> {
			first.lock();
			firstDone.countDown();
			first.unlock();
		}, executor());
		CompletableFuture<Void> two = CompletableFuture.runAsync(() -> {
			try {
				assertThat(firstDone.await(10, TimeUnit.SECONDS)).isTrue();
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
			second.lock();
			second.unlock();
		}, executor());
		CompletableFuture.allOf(one, two).get(20, TimeUnit.SECONDS);
		assertThat(one).isCompleted();
		assertThat(two).isCompleted();
		assertThat(exists("test-1")).isFalse();
	}

	/** Follows {@code multiRedisLockRegistryTest}. */
	@Test
	void tenRegistriesEachTakeTheLockInEveryRound() throws Exception {
		AtomicInteger taken = new AtomicInteger();
		List<Callable<Boolean>> calls = new ArrayList<>();
		for (int r = 0; r < 10; r++) {
			SetnxIntegrationLockRegistry registry = renewing();
			calls.add(() -> {
				Lock lock = registry.obtain("testKey");
				lock.lock();
				lock.unlock();
				taken.incrementAndGet();
				return true;
			});
		}
		ExecutorService pool = executor(20);
		for (int round = 0; round < 3; round++) {
			for (Future<Boolean> call : pool.invokeAll(calls, 60, TimeUnit.SECONDS)) {
				assertThat(call.get()).isTrue();
			}
		}
		assertThat(taken).hasValue(3 * 10);
	}

	/** Follows {@code earlyWakeUpTest}. */
	@Test
	void anUnlockLetsExactlyOneWaiterOfOtherRegistriesIn() throws Exception {
		Lock held = renewing().obtain("testKey");
		held.lock();
		AtomicInteger inside = new AtomicInteger();
		CountDownLatch ready = new CountDownLatch(2);
		CountDownLatch leave = new CountDownLatch(1);
		List<Future<Boolean>> waiters = new ArrayList<>();
		ExecutorService pool = executor(2);
		for (int w = 0; w < 2; w++) {
			Lock lock = renewing().obtain("testKey");
			waiters.add(pool.submit(() -> {
				ready.countDown();
				if (!lock.tryLock(10, TimeUnit.SECONDS)) {
					return false;
				}
				try {
					inside.incrementAndGet();
					leave.await(10, TimeUnit.SECONDS);
					return true;
				}
				finally {
					lock.unlock();
				}
			}));
		}
		assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
		held.unlock();
		await().atMost(Duration.ofSeconds(10)).until(() -> inside.get() > 0);
		// The other one keeps waiting while the first holds.
		Thread.sleep(1000);
		assertThat(inside).hasValue(1);
		leave.countDown();
		for (Future<Boolean> waiter : waiters) {
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(inside).hasValue(2);
	}

	/**
	 * Follows {@code testTwoThreadsRemoveAndObtainSameLockSimultaneously}, which calls
	 * {@code expireUnusedOlderThan} while two threads obtain one key.
	 */
	@Test
	void twoThreadsObtainingOneKeyAtOnceGetOneHandle() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		for (int i = 0; i < 200; i++) {
			String key = "testKey" + i;
			CountDownLatch start = new CountDownLatch(1);
			AtomicReference<Lock> first = new AtomicReference<>();
			AtomicReference<Lock> second = new AtomicReference<>();
			Thread one = new Thread(() -> first.set(expireObtainAndLock(registry, key, start)));
			Thread two = new Thread(() -> second.set(expireObtainAndLock(registry, key, start)));
			one.start();
			two.start();
			start.countDown();
			one.join(10_000);
			two.join(10_000);
			assertThat(first.get()).isNotNull().isSameAs(second.get()).isEqualTo(second.get());
		}
	}

	private static Lock expireObtainAndLock(SetnxIntegrationLockRegistry registry, String key, CountDownLatch start) {
		try {
			start.await();
			registry.expireUnusedOlderThan(10_000);
			Lock lock = registry.obtain(key);
			if (lock.tryLock(500, TimeUnit.MILLISECONDS)) {
				lock.unlock();
			}
			return lock;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/** Follows {@code testLockRenew}. */
	@Test
	void renewLockOfAHeldLockSucceeds() {
		SetnxIntegrationLockRegistry registry = renewing();
		Lock lock = registry.obtain("foo");
		assertThat(lock.tryLock()).isTrue();
		try {
			assertThatNoException().isThrownBy(() -> registry.renewLock("foo"));
		}
		finally {
			lock.unlock();
		}
	}

	/** Follows {@code testLockRenewLockNotOwned}. */
	@Test
	void renewLockOfALockTheThreadDoesNotHoldThrowsIllegalStateException() {
		SetnxIntegrationLockRegistry registry = renewing();
		registry.obtain("foo");
		assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("foo"))
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("foo", Duration.ofSeconds(2)))
			.withCauseInstanceOf(IllegalMonitorStateException.class);
	}

	/** Follows {@code testLockRenewWithCustomTtl}. */
	@Test
	void renewLockWithATimeToLiveKeepsTheLockFromAnotherRegistryPastTheFirst() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		Lock ofAnotherProcess = renewing().obtain("foo");
		DistributedLock lock = registry.obtain("foo");
		assertThat(lock.tryLock(Duration.ofMillis(100), Duration.ofMillis(200))).isTrue();
		try {
			registry.renewLock("foo", Duration.ofSeconds(3));
			Thread.sleep(400);
			assertThat(ofAnotherProcess.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
		}
		finally {
			lock.unlock();
		}
	}

	/** Follows {@code testUnlockDoesNotDeleteOtherClientsLock}. */
	@Test
	void unlockOfAnExpiredHoldLeavesAnotherClientsLockInPlace() throws Exception {
		Lock expired = expiring(Duration.ofMillis(100)).obtain("testLock");
		Lock current = renewing().obtain("testLock");
		expired.lock();
		awaitExpired("testLock");
		assertThat(current.tryLock()).isTrue();
		try {
			assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(expired::unlock)
				.withCauseInstanceOf(LockLostException.class);
			assertThat(exists("testLock")).isTrue();
		}
		finally {
			current.unlock();
		}
		assertThat(exists("testLock")).isFalse();
	}

	/**
	 * Follows what {@code testUnlockWhenInterruptedBlocksUntilKeyRemoved} can show
	 * without Spring Integration's executor: a holder interrupted under the lock still
	 * removes the key before its unlock returns, and keeps its interrupt.
	 */
	@Test
	void anInterruptedHoldersUnlockRemovesTheKeyBeforeReturningAndKeepsTheInterrupt() throws Exception {
		SetnxIntegrationLockRegistry registry = renewing();
		Lock lock = registry.obtain("test");
		Future<List<Boolean>> holder = executor().submit(() -> {
			lock.lock();
			try {
				Thread.currentThread().interrupt();
			}
			finally {
				lock.unlock();
			}
			return List.of(exists("test"), Thread.interrupted());
		});
		assertThat(holder.get(10, TimeUnit.SECONDS)).containsExactly(false, true);
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
	}

	// Beyond Spring Integration's cases: what the bridge adds to them.

	@Test
	void tryLockOnAHoldWhoseLeaseEndedTakesAFreeKeyAgainAndTheLostHoldsUnlockStillTellsTheLoss() throws Exception {
		// Long enough for the hold taken again to be released before it ends.
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofSeconds(1));
		Lock lock = registry.obtain("foo");
		lock.lock();
		awaitExpired("foo");
		// As Spring Integration's lock takes the key again.
		assertThat(lock.tryLock()).isTrue();
		assertThat(exists("foo")).isTrue();
		lock.unlock();
		assertThat(exists("foo")).isFalse();
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withCauseInstanceOf(LockLostException.class);
		assertThatIllegalStateException().isThrownBy(lock::unlock).withMessageContaining("You do not own lock at");
	}

	@Test
	void renewLockOfALostHoldThrowsIllegalStateExceptionCausedByTheLoss() throws Exception {
		SetnxIntegrationLockRegistry registry = expiring(Duration.ofMillis(100));
		DistributedLock lock = registry.obtain("foo");
		lock.lock();
		awaitExpired("foo");
		assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("foo"))
			.withMessageContaining("Could not renew mutex at")
			.withCauseInstanceOf(LockLostException.class);
		assertThat(lock.tryLock(Duration.ofMillis(100), Duration.ofSeconds(3))).isTrue();
		registry.renewLock("foo", Duration.ofSeconds(3));
		lock.unlock();
		// The lost hold, set aside by the tryLock, is still owed an unlock.
		assertThatIllegalStateException().isThrownBy(() -> registry.renewLock("foo"))
			.withCauseInstanceOf(LockLostException.class);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock);
	}

	@Test
	void aRedisErrorWhileLockingIsCannotAcquireLockExceptionCausedByOurs() {
		SetnxIntegrationLockRegistry registry = renewing();
		server().execute("RPUSH", "lock:list", "a");
		DistributedLock lock = registry.obtain("list");
		assertThatExceptionOfType(CannotAcquireLockException.class).isThrownBy(lock::tryLock)
			.withMessageContaining("Failed to lock mutex at")
			.withCauseInstanceOf(io.github.setnxlock.LockAccessException.class);
		assertThatExceptionOfType(CannotAcquireLockException.class)
			.isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(1)))
			.withCauseInstanceOf(io.github.setnxlock.LockAccessException.class);
	}

	/**
	 * A registry whose holds last until unlocked: a lease that outlasts the stalls of a
	 * busy machine (a lease of 2 s was lost while other test classes started JVMs).
	 */
	private SetnxIntegrationLockRegistry renewing() {
		return new SetnxIntegrationLockRegistry(registry(Duration.ofSeconds(10), true));
	}

	/** A registry whose holds end with its lease, as Spring Integration's do. */
	private SetnxIntegrationLockRegistry expiring(Duration lease) {
		return new SetnxIntegrationLockRegistry(registry(lease, false));
	}

	private SetnxLockRegistry registry(Duration lease, boolean renewal) {
		return registry(SetnxLockSettings.builder().leaseTime(lease).renewal(renewal).build());
	}

	private SetnxLockRegistry registry(SetnxLockSettings settings) {
		LettuceConnectionFactory factory = RedisConnections.create(server(), Duration.ofSeconds(2));
		this.factories.add(factory);
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory), settings);
		this.registries.add(registry);
		return registry;
	}

	private ExecutorService executor() {
		return executor(1);
	}

	private ExecutorService executor(int threads) {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		this.executors.add(executor);
		return executor;
	}

	private static boolean exists(String key) {
		return Long.valueOf(1).equals(server().execute("EXISTS", "lock:" + key));
	}

	private static long pttl(String key) {
		return (Long) server().execute("PTTL", "lock:" + key);
	}

	private static void awaitExpired(String key) {
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> !exists(key));
	}

	private static RedisServer server() {
		return redis.server();
	}

}
