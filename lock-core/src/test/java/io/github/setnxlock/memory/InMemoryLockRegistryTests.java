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
package io.github.setnxlock.memory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.LockRegistryContractTests;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * The registry-agnostic contract run against two in-memory registries on one lock space,
 * and what only the in-memory registry promises.
 *
 * @author setnx-lock authors
 */
// Long (about 20 s): handed out early (CoresFirst).
@Order(1)
class InMemoryLockRegistryTests extends LockRegistryContractTests {

	private InMemoryLockRegistry first;

	private InMemoryLockRegistry second;

	@BeforeEach
	void createRegistries() {
		this.first = new InMemoryLockRegistry();
		this.second = InMemoryLockRegistry.sharing(this.first);
	}

	@AfterEach
	void nothingIsLeftBehind() throws InterruptedException {
		stopThreads();
		// Some tests leave a key held on purpose; what must not stay is state for a key
		// nobody holds or waits for (one whose lease ended goes at the lease's end).
		await("state of keys nobody holds or waits for").atMost(Duration.ofSeconds(10))
			.until(() -> LockSpaces.idleKeyCount(this.first.space()) == 0);
		await("threads and asynchronous acquisitions in line").atMost(Duration.ofSeconds(10))
			.until(() -> LockSpaces.waiterCount(this.first.space()) == 0);
		this.first.close();
		this.second.close();
	}

	@Override
	protected LockRegistry first() {
		return this.first;
	}

	@Override
	protected LockRegistry second() {
		return this.second;
	}

	@Override
	protected boolean isStored(String key) {
		return LockSpaces.isLocked(this.first.space(), key);
	}

	@Override
	protected int localKeyCount(LockRegistry registry) {
		return ((InMemoryLockRegistry) registry).localKeyCount();
	}

	@Override
	protected void awaitWaiter(LockRegistry registry, String key) {
		await("a waiter for " + key).atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> LockSpaces.waiters(this.first.space(), key) > 0);
	}

	@Test
	void registriesWithSpacesOfTheirOwnDoNotContend() throws Exception {
		LeasedLock lock = this.first.obtain("apart");
		lock.lock();
		InMemoryLockRegistry elsewhere = new InMemoryLockRegistry();
		LeasedLock other = elsewhere.obtain("apart");
		assertThat(threads().submit(() -> other.tryLock()).get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(lock.isLocked()).isTrue();
		lock.unlock();
	}

	@Test
	void sharingNothingIsRefused() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> InMemoryLockRegistry.sharing(null));
	}

	@Test
	void aThreadThatHoldsAKeyThroughOneRegistryWaitsForItThroughTheOther() throws Exception {
		LeasedLock lock = this.first.obtain("per-registry");
		lock.lock();
		assertThat(this.second.obtain("per-registry").tryLock(Duration.ofMillis(500))).isFalse();
		lock.unlock();
		assertThat(this.second.obtain("per-registry").tryLock()).isTrue();
		this.second.obtain("per-registry").unlock();
	}

	@Test
	void aHoldTakenWithoutALeaseIsKeptUntilUnlocked() throws Exception {
		LeasedLock lock = this.first.obtain("no-lease");
		lock.lock();
		// Longer than any lease the suite waits out.
		assertThat(this.second.obtain("no-lease").tryLock(Duration.ofSeconds(1))).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.checkHeld();
		lock.unlock();
	}

	@Test
	void anAsyncHoldIsNotReentrantAndCanBeReleasedByAnyThread() throws Exception {
		LeasedLock lock = this.first.obtain("async-owner");
		LockHandle handle = lock.acquireAsync(Duration.ZERO).get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.acquireAsync(Duration.ZERO).get(10, TimeUnit.SECONDS)).isEmpty();
		assertThat(handle.extend(Duration.ofSeconds(1))).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.withCauseInstanceOf(IllegalStateException.class);
		threads().submit(() -> handle.release().join()).get(10, TimeUnit.SECONDS);
		assertThat(lock.isLocked()).isFalse();
	}

	@Test
	void anAsyncHoldWhoseLeaseEndsIsLostAndItsKeyGoesToTheNextWaiter() throws Exception {
		LeasedLock lock = this.first.obtain("async-lease");
		LockHandle expiring = lock.acquireAsync(Duration.ZERO, shortLease()).get(10, TimeUnit.SECONDS).orElseThrow();
		long token = expiring.fencingToken();
		CompletableFuture<Optional<LockHandle>> next = this.second.obtain("async-lease")
			.acquireAsync(Duration.ofSeconds(30));
		LockHandle taken = next.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(expiring.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(expiring::checkHeld);
		assertThat(expiring.fencingTokenAsync()).isCompletedExceptionally();
		assertThat(taken.fencingTokenAsync().get(10, TimeUnit.SECONDS)).isGreaterThan(token);
		assertThat(expiring.release()).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.withCauseInstanceOf(LockLostException.class);
		assertThat(taken.isHeld()).isTrue();
		taken.release().get(10, TimeUnit.SECONDS);
	}

	@Test
	void aCancelledAcquisitionLeavesTheLineAtOnce() throws Exception {
		LeasedLock holder = this.first.obtain("cancelled-at-once");
		holder.lock();
		CompletableFuture<Optional<LockHandle>> waiting = this.second.obtain("cancelled-at-once")
			.acquireAsync(Duration.ofSeconds(30), Duration.ofSeconds(30));
		assertThat(LockSpaces.waiters(this.first.space(), "cancelled-at-once")).isOne();
		assertThat(waiting.cancel(false)).isTrue();
		assertThat(LockSpaces.waiters(this.first.space(), "cancelled-at-once")).isZero();
		holder.unlock();
		LeasedLock next = this.second.obtain("cancelled-at-once");
		assertThat(next.tryLock()).isTrue();
		next.unlock();
	}

	@Test
	void aTimedOutFutureGivesItsAcquisitionUp() throws Exception {
		LeasedLock holder = this.first.obtain("async-timeout");
		holder.lock();
		CompletableFuture<Optional<LockHandle>> waiting = this.second.obtain("async-timeout")
			.acquireAsync(Duration.ofSeconds(30))
			.orTimeout(200, TimeUnit.MILLISECONDS);
		assertThat(waiting).failsWithin(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> LockSpaces.waiters(this.first.space(), "async-timeout") == 0);
		holder.unlock();
		assertThat(holder.isLocked()).isFalse();
	}

	@Test
	void threadsAndAsyncAcquisitionsAreServedInTheOrderTheyCameIn() throws Exception {
		LeasedLock holder = this.first.obtain("one-line");
		holder.lock();
		CountDownLatch release = new CountDownLatch(1);
		Future<Boolean> thread = threads().submit(() -> {
			LeasedLock lock = this.second.obtain("one-line");
			lock.lock();
			try {
				return release.await(10, TimeUnit.SECONDS);
			}
			finally {
				lock.unlock();
			}
		});
		awaitWaiter(this.second, "one-line");
		CompletableFuture<Optional<LockHandle>> async = this.second.obtain("one-line")
			.acquireAsync(Duration.ofSeconds(30));
		holder.unlock();
		await().atMost(Duration.ofSeconds(10)).until(() -> LockSpaces.waiters(this.first.space(), "one-line") == 1);
		assertThat(async).isNotDone();
		release.countDown();
		assertThat(thread.get(10, TimeUnit.SECONDS)).isTrue();
		LockHandle handle = async.get(10, TimeUnit.SECONDS).orElseThrow();
		handle.release().get(10, TimeUnit.SECONDS);
	}

	@Test
	void atALeaseEndTheKeyGoesToTheFirstInLineNotToANewcomer() throws Exception {
		LeasedLock holder = this.first.obtain("lease-end-line");
		assertThat(holder.tryLock(Duration.ZERO, shortLease())).isTrue();
		CompletableFuture<Optional<LockHandle>> first = this.second.obtain("lease-end-line")
			.acquireAsync(Duration.ofSeconds(30));
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !holder.isHeldByCurrentThread());
		assertThat(this.second.obtain("lease-end-line").tryLock()).isFalse();
		LockHandle handle = first.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(handle.isHeld()).isTrue();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holder::unlock);
		handle.release().get(10, TimeUnit.SECONDS);
	}

	@Test
	void aHoldWithoutALeaseEndsWhenItsThreadDiesAndTheKeyGoesToThoseInLine() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch die = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			this.first.obtain("dead-holder").lock();
			held.countDown();
			awaitQuietly(die);
		}, "dies-holding-the-lock");
		holder.start();
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Optional<LockHandle>> async = this.second.obtain("dead-holder")
			.acquireAsync(Duration.ofSeconds(30));
		Future<Boolean> thread = threads().submit(() -> {
			LeasedLock lock = this.second.obtain("dead-holder");
			boolean acquired = lock.tryLock(Duration.ofSeconds(30));
			lock.unlock();
			return acquired;
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> LockSpaces.waiters(this.first.space(), "dead-holder") == 2);
		die.countDown();
		holder.join(10_000);
		assertThat(holder.isAlive()).isFalse();
		LockHandle handle = async.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(this.first.localKeyCount()).isZero();
		handle.release().get(10, TimeUnit.SECONDS);
		assertThat(thread.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aThreadThatDiedHoldingAKeyWithoutALeaseDoesNotKeepItFromANewcomer() throws Exception {
		Thread holder = new Thread(() -> this.first.obtain("dead-before").lock(), "dies-holding-it");
		holder.start();
		holder.join(10_000);
		assertThat(holder.isAlive()).isFalse();
		LeasedLock lock = this.second.obtain("dead-before");
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
		assertThat(this.first.localKeyCount()).isZero();
	}

	@Test
	void aWaiterOfTheSameRegistryGetsTheKeyOfAThreadThatDiedHoldingIt() throws Exception {
		Thread holder = new Thread(() -> this.first.obtain("dead-here").lock(), "dies-holding-it-here");
		holder.start();
		holder.join(10_000);
		assertThat(holder.isAlive()).isFalse();
		LeasedLock lock = this.first.obtain("dead-here");
		// A third of the dead holder's lease: the key goes before the lease would end.
		assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
		lock.unlock();
		assertThat(this.first.localKeyCount()).isZero();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void aKeyNobodyHoldsOrWaitsForLeavesNoState() throws Exception {
		LeasedLock lock = this.first.obtain("forgotten");
		lock.lock();
		lock.unlock();
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> LockSpaces.keyCount(this.first.space()) == 0);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(LockSpaces.keyCount(this.first.space())).isZero();
		assertThat(this.first.localKeyCount()).isZero();
	}

}
