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
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.LockRegistryContractTests;
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
			.until(() -> this.first.space().idleKeyCount() == 0);
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
		return this.first.space().isLocked(key);
	}

	@Override
	protected int localKeyCount(LockRegistry registry) {
		return ((InMemoryLockRegistry) registry).localKeyCount();
	}

	@Override
	protected void awaitWaiter(LockRegistry registry, String key) {
		await("a waiter for " + key).atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.first.space().waiters(key) > 0);
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
	void aTimedOutFutureGivesItsAcquisitionUp() throws Exception {
		LeasedLock holder = this.first.obtain("async-timeout");
		holder.lock();
		CompletableFuture<Optional<LockHandle>> waiting = this.second.obtain("async-timeout")
			.acquireAsync(Duration.ofSeconds(30))
			.orTimeout(200, TimeUnit.MILLISECONDS);
		assertThat(waiting).failsWithin(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.first.space().waiters("async-timeout") == 0);
		holder.unlock();
		assertThat(holder.isLocked()).isFalse();
	}

	@Test
	void aKeyNobodyHoldsOrWaitsForLeavesNoState() throws Exception {
		LeasedLock lock = this.first.obtain("forgotten");
		lock.lock();
		lock.unlock();
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.first.space().keyCount() == 0);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(this.first.space().keyCount()).isZero();
		assertThat(this.first.localKeyCount()).isZero();
	}

}
