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
package io.github.setnxlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import static org.awaitility.Awaitility.await;

/**
 * The behaviour every {@link LockRegistry} must show, seen through the API alone: two
 * registries that share one lock space (two applications on one Redis, or two in-memory
 * registries on one space) contend for the same keys. setnx-lock runs it against every
 * registry it has; write a subclass to run it against a {@code LockRegistry} of your own
 * (see {@code docs/testing.md}).
 * <p>
 * A subclass makes two registries on one lock space before each test and closes them
 * after it (calling {@link #stopThreads()} first), and answers the hooks: where a lock is
 * stored, what a registry keeps for its keys, and when a waiter is waiting. The tests use
 * leases of {@link #shortLease()} and wait up to 10 seconds for what must happen.
 *
 * @author setnx-lock authors
 */
public abstract class LockRegistryContractTests {

	private ExecutorService threads;

	/**
	 * Return the first registry of the current test.
	 * @return the registry
	 */
	protected abstract LockRegistry first();

	/**
	 * Return the second registry of the current test, which shares the first's locks.
	 * @return the registry
	 */
	protected abstract LockRegistry second();

	/**
	 * Whether the lock of a key is stored where the registries share it (in Redis: the
	 * key exists), looked at without either registry.
	 * @param key the lock's key, without prefix
	 * @return whether it is stored
	 */
	protected abstract boolean isStored(String key);

	/**
	 * Return how many keys a registry keeps state for in this JVM, which must drop to
	 * zero once nothing is held or waited for.
	 * @param registry one of the two registries
	 * @return the number of keys
	 */
	protected abstract int localKeyCount(LockRegistry registry);

	/**
	 * Wait until a thread of the registry waits for the key: it has found the key held
	 * and parked, so a release from then on exercises the wake-up, not an acquisition
	 * that merely came after the release.
	 * @param registry the waiter's registry
	 * @param key the lock's key, without prefix
	 */
	protected abstract void awaitWaiter(LockRegistry registry, String key);

	/**
	 * Return a lease short enough to wait out in a test, and long enough to work within.
	 * @return the lease
	 */
	protected Duration shortLease() {
		return Duration.ofMillis(300);
	}

	/**
	 * Return the threads a test starts besides its own.
	 * @return the threads
	 */
	protected ExecutorService threads() {
		return this.threads;
	}

	@BeforeEach
	void startThreads() {
		this.threads = Executors.newCachedThreadPool();
	}

	/**
	 * Stop the test's threads; subclasses call it before they close their registries.
	 * @throws InterruptedException if interrupted while waiting for the threads
	 */
	@AfterEach
	protected void stopThreads() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
	}

	/**
	 * Whether a waiter of the other registry hears that a holder shortened its lease,
	 * rather than waiting for the end of the lease it saw.
	 * @return {@code true} unless the protocol leaves it to the waiter's own re-checks
	 */
	protected boolean waitersHearOfAShortenedLease() {
		return true;
	}

	/**
	 * Wait until the registry receives release messages, so that a waiter that comes then
	 * waits for a message rather than re-checking on a back-off.
	 * @param registry the registry
	 */
	protected void awaitReleaseMessages(LockRegistry registry) {
	}

	@Test
	void aShortenedLeaseWakesAThreadThatWaitsForIt() throws Exception {
		assumeTrue(waitersHearOfAShortenedLease(), "waiters of this protocol are not told of a shortened lease");
		LeasedLock holder = first().obtain("shortened");
		assertThat(holder.tryLock(Duration.ZERO, Duration.ofHours(1))).isTrue();
		awaitReleaseMessages(second());
		Future<Boolean> waiter = threads().submit(() -> {
			LeasedLock lock = second().obtain("shortened");
			lock.lock();
			lock.unlock();
			return true;
		});
		awaitWaiter(second(), "shortened");
		holder.extendLease(shortLease());
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holder::unlock);
	}

	@Test
	void obtainRejectsANullOrBlankKeyAndANullName() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> first().obtain(null))
			.withMessage("Lock key must not be null");
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> first().obtain(""))
			.withMessageContaining("must not be empty or blank");
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> first().obtain(" \t"))
			.withMessageContaining("must not be empty or blank");
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> first().obtain("named", null))
			.withMessageContaining("name must not be null");
		LeasedLock named = first().obtain("named", "orders");
		assertThat(named.key()).isEqualTo("named");
		assertThat(named.name()).isEqualTo("orders");
		assertThat(first().obtain("named").name()).isEmpty();
	}

	@Test
	void tryLockWhenFreeThenHoldsItAndUnlockDeletesTheKey() {
		LeasedLock lock = first().obtain("free");
		assertThat(lock.tryLock()).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		assertThat(lock.isLocked()).isTrue();
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThat(isStored("free")).isTrue();
		lock.unlock();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.isLocked()).isFalse();
		assertThat(isStored("free")).isFalse();
		assertThat(localKeyCount(first())).isZero();
	}

	@Test
	void tryLockWhenHeldElsewhereThenFalse() throws Exception {
		holdInOtherThread(second().obtain("held"), Duration.ofSeconds(30));
		LeasedLock lock = first().obtain("held");
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.tryLock(Duration.ofMillis(200))).isFalse();
		assertThat(lock.tryLock(0, TimeUnit.SECONDS)).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.isLocked()).isTrue();
		assertThat(localKeyCount(first())).isZero();
	}

	@Test
	void tryLockWhenHeldByAnotherThreadOfTheSameRegistryThenFalse() throws Exception {
		holdInOtherThread(first().obtain("local"), Duration.ofSeconds(30));
		LeasedLock lock = first().obtain("local");
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
	}

	@Test
	void timedTryLockWhenHolderReleasesThenAcquires() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		this.threads.submit(() -> {
			LeasedLock other = second().obtain("handoff");
			other.lock();
			held.countDown();
			awaitWaiter(first(), "handoff");
			other.unlock();
			return null;
		});
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		LeasedLock lock = first().obtain("handoff");
		assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
		lock.unlock();
	}

	@Test
	void lockWaitsUntilTheHolderReleases() throws Exception {
		LeasedLock holder = first().obtain("blocking");
		holder.lock();
		AtomicReference<Boolean> heldByWaiter = new AtomicReference<>();
		Future<?> waiter = this.threads.submit(() -> {
			LeasedLock lock = second().obtain("blocking");
			lock.lock();
			heldByWaiter.set(lock.isHeldByCurrentThread());
			lock.unlock();
		});
		awaitWaiter(second(), "blocking");
		assertThat(waiter.isDone()).isFalse();
		holder.unlock();
		waiter.get(10, TimeUnit.SECONDS);
		assertThat(heldByWaiter.get()).isTrue();
	}

	@Test
	void lockInterruptiblyWhenInterruptedThenThrowsAndLeavesNothingBehind() throws Exception {
		holdInOtherThread(second().obtain("interrupt"), Duration.ofSeconds(30));
		AtomicReference<Throwable> failure = new AtomicReference<>();
		CountDownLatch started = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			LeasedLock lock = first().obtain("interrupt");
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
		awaitWaiter(first(), "interrupt");
		waiter.interrupt();
		waiter.join(5000);
		assertThat(waiter.isAlive()).isFalse();
		assertThat(failure.get()).isInstanceOf(InterruptedException.class);
		assertThat(localKeyCount(first())).isZero();
	}

	@Test
	void lockKeepsTheInterruptForLater() throws Exception {
		LeasedLock holder = second().obtain("uninterruptible");
		holder.lock();
		AtomicReference<Boolean> heldAndInterrupted = new AtomicReference<>();
		AtomicReference<Thread> waitingThread = new AtomicReference<>();
		Future<?> waiter = this.threads.submit(() -> {
			waitingThread.set(Thread.currentThread());
			LeasedLock lock = first().obtain("uninterruptible");
			lock.lock();
			heldAndInterrupted.set(lock.isHeldByCurrentThread() && Thread.currentThread().isInterrupted());
			Thread.interrupted();
			lock.unlock();
		});
		awaitWaiter(first(), "uninterruptible");
		waitingThread.get().interrupt();
		// Time for the interrupt to reach the wait: lock() must go on waiting through it.
		Thread.sleep(200);
		assertThat(waiter.isDone()).isFalse();
		holder.unlock();
		waiter.get(10, TimeUnit.SECONDS);
		assertThat(heldAndInterrupted.get()).isTrue();
	}

	@Test
	void anInterruptedHolderStillReleasesTheKey() {
		LeasedLock lock = first().obtain("interrupted-holder");
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
		assertThat(isStored("interrupted-holder")).isFalse();
	}

	@Test
	void interruptibleCallsOfAnInterruptedThreadThrowAtOnce() {
		LeasedLock lock = first().obtain("interrupted-caller");
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
		assertThat(localKeyCount(first())).isZero();
	}

	@Test
	void unlockWhenNobodyHoldsThenIllegalMonitorState() {
		LeasedLock lock = first().obtain("nobody");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'nobody'");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::checkHeld)
			.isNotInstanceOf(LockLostException.class);
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::fencingToken)
			.isNotInstanceOf(LockLostException.class);
	}

	@Test
	void unlockByAnotherThreadThenIllegalMonitorStateAndTheLockStaysHeld() throws Exception {
		LeasedLock lock = first().obtain("owned");
		lock.lock();
		Future<Throwable> other = this.threads.submit(() -> {
			try {
				first().obtain("owned").unlock();
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
		LeasedLock lock = first().obtain("reentrant");
		LeasedLock sameKey = first().obtain("reentrant");
		lock.lock();
		assertThat(lock.tryLock()).isTrue();
		assertThat(sameKey.tryLock(Duration.ofSeconds(1))).isTrue();
		assertThat(lock.holdCount()).isEqualTo(3);
		long token = lock.fencingToken();
		assertThat(sameKey.fencingToken()).isEqualTo(token);
		lock.unlock();
		sameKey.unlock();
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThat(second().obtain("reentrant").isLocked()).isTrue();
		lock.unlock();
		assertThat(lock.holdCount()).isZero();
		assertThat(second().obtain("reentrant").isLocked()).isFalse();
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock);
	}

	@Test
	void unlockKeepingForFreesTheThreadButKeepsTheLockUntilTheTimeIsUp() throws Exception {
		LeasedLock lock = first().obtain("kept");
		lock.lock();
		lock.unlockKeepingFor(shortLease());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.holdCount()).isZero();
		assertThat(localKeyCount(first())).isZero();
		assertThat(lock.isLocked()).isTrue();
		LeasedLock elsewhere = second().obtain("kept");
		assertThat(elsewhere.tryLock()).isFalse();
		assertThat(lock.tryLock()).isFalse();
		assertThat(elsewhere.tryLock(Duration.ofSeconds(10))).isTrue();
		elsewhere.unlock();
		assertThat(lock.isLocked()).isFalse();
	}

	@Test
	void unlockKeepingForRejectsABadTimeAndKeepsTheHold() {
		LeasedLock lock = first().obtain("kept-bad");
		lock.lock();
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> lock.unlockKeepingFor(Duration.ZERO))
			.withMessage("keep must be positive, but was PT0S");
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> lock.unlockKeepingFor(Duration.ofSeconds(1)));
	}

	@Test
	void extendLeaseGivesAHoldWithALeaseOfItsOwnANewOneAndRefusesTheOthers() throws Exception {
		LeasedLock leased = first().obtain("extended");
		assertThat(leased.tryLock(Duration.ZERO, shortLease())).isTrue();
		leased.extendLease(Duration.ofSeconds(10));
		// Past the lease it was taken with: only the new one keeps it held.
		Thread.sleep(shortLease().toMillis() + 200);
		leased.checkHeld();
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> leased.extendLease(Duration.ZERO));
		leased.unlock();
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> leased.extendLease(Duration.ofSeconds(30)));
		LeasedLock held = first().obtain("held-until-unlocked");
		held.lock();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> held.extendLease(Duration.ofSeconds(30)))
			.withMessageContaining("'held-until-unlocked'");
		assertThat(held.isHeldByCurrentThread()).isTrue();
		held.unlock();
	}

	@Test
	void newConditionIsNotSupported() {
		LeasedLock lock = first().obtain("condition");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition);
	}

	@Test
	void manyThreadsInTwoRegistriesNeverHoldTogether() throws Exception {
		int threadsPerRegistry = 4;
		int iterations = 150;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		int[] entries = new int[1];
		List<Future<?>> workers = new ArrayList<>();
		for (LockRegistry registry : List.of(first(), second())) {
			for (int t = 0; t < threadsPerRegistry; t++) {
				workers.add(this.threads.submit(() -> {
					LeasedLock lock = registry.obtain("counter");
					for (int i = 0; i < iterations; i++) {
						lock.lock();
						try {
							if (inside.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							// A read and a write apart: overlapping holders lose updates.
							int read = entries[0];
							Thread.yield();
							entries[0] = read + 1;
							inside.decrementAndGet();
						}
						finally {
							lock.unlock();
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(120, TimeUnit.SECONDS);
		}
		assertThat(overlaps.get()).isZero();
		assertThat(entries[0]).isEqualTo(2 * threadsPerRegistry * iterations);
		assertThat(localKeyCount(first())).isZero();
		assertThat(localKeyCount(second())).isZero();
	}

	@Test
	void whenTheHolderLeaseEndsThenAnotherClientTakesOver() throws Exception {
		long firstToken = holdInOtherThread(second().obtain("takeover"), shortLease());
		LeasedLock lock = first().obtain("takeover");
		assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(firstToken);
		lock.unlock();
	}

	@Test
	void unlockAfterTakeoverThrowsLockLostAndKeepsTheNewHoldersKey() throws Exception {
		LeasedLock lost = first().obtain("lost");
		assertThat(lost.tryLock(Duration.ZERO, shortLease())).isTrue();
		Future<?> taker = this.threads.submit(() -> {
			LeasedLock lock = second().obtain("lost");
			assertThat(lock.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(30))).isTrue();
			return null;
		});
		taker.get(15, TimeUnit.SECONDS);
		assertThat(lost.isHeldByCurrentThread()).isFalse();
		assertThat(lost.holdCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::checkHeld);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::fencingToken);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::unlock)
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("lost"));
		assertThat(lost.holdCount()).isZero();
		assertThat(isStored("lost")).isTrue();
		assertThat(lost.isLocked()).isTrue();
	}

	@Test
	void unlockAfterTheLeaseEndedWithoutTakeoverThrowsLockLost() throws Exception {
		LeasedLock lock = first().obtain("expired");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(localKeyCount(first())).isZero();
	}

	@Test
	void reacquiringALostHoldThrowsLockLost() throws Exception {
		LeasedLock lock = first().obtain("reentry-lost");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::tryLock);
		assertThat(lock.holdCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
	}

	@Test
	void interruptOnLossInterruptsTheHolderWhenItsLeaseEnds() throws Exception {
		LeasedLock lock = first().obtain("interrupt-on-loss");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		lock.interruptOnLoss();
		try {
			assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> Thread.sleep(30_000));
		}
		finally {
			Thread.interrupted();
		}
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::checkHeld);
		// What unlock() throws for a lease that ended is the business of the tests above;
		// here it only clears the hold.
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(lock::unlock);
		assertThat(lock.holdCount()).isZero();
	}

	@Test
	void interruptOnLossAskedByAnInnerEntryEndsWithThatEntry() throws Exception {
		LeasedLock lock = first().obtain("interrupt-on-loss-inner");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		assertThat(lock.tryLock()).isTrue();
		lock.interruptOnLoss();
		lock.unlock();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
		try {
			// An interrupt asked for by the entry that ended would come at the loss.
			Thread.sleep(shortLease().toMillis() + 500);
			assertThat(Thread.currentThread().isInterrupted()).isFalse();
		}
		finally {
			Thread.interrupted();
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(lock::unlock);
		}
	}

	@Test
	void interruptOnLossAskedByTheOuterEntryOutlastsAnInnerEntry() throws Exception {
		LeasedLock lock = first().obtain("interrupt-on-loss-outer");
		assertThat(lock.tryLock(Duration.ZERO, shortLease())).isTrue();
		lock.interruptOnLoss();
		assertThat(lock.tryLock()).isTrue();
		lock.interruptOnLoss();
		lock.unlock();
		try {
			assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> Thread.sleep(30_000));
		}
		finally {
			Thread.interrupted();
		}
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(lock::unlock);
		assertThat(lock.holdCount()).isZero();
	}

	@Test
	void fencingTokensIncreaseAcrossHolders() {
		long last = 0;
		for (int i = 0; i < 40; i++) {
			LockRegistry registry = (i % 2 == 0) ? first() : second();
			LeasedLock lock = registry.obtain("fenced");
			lock.lock();
			long token = lock.fencingToken();
			assertThat(token).isGreaterThan(last);
			last = token;
			lock.unlock();
		}
	}

	@Test
	void acquireAsyncWaitsWithoutAThreadAndGetsTheLockWhenTheHolderReleases() throws Exception {
		LeasedLock holder = first().obtain("async");
		holder.lock();
		long holderToken = holder.fencingToken();
		CompletableFuture<Optional<LockHandle>> waiting = second().obtain("async", "jobs")
			.acquireAsync(Duration.ofSeconds(30));
		assertThat(waiting).isNotDone();
		holder.unlock();
		LockHandle handle = waiting.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(handle.key()).isEqualTo("async");
		assertThat(handle.name()).isEqualTo("jobs");
		assertThat(handle.isHeld()).isTrue();
		assertThat(handle.fencingToken()).isGreaterThan(holderToken);
		assertThat(holder.tryLock()).isFalse();
		handle.release().get(10, TimeUnit.SECONDS);
		assertThat(handle.isHeld()).isFalse();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(handle::checkHeld);
		assertThat(handle.release()).isCompletedExceptionally();
		assertThat(holder.isLocked()).isFalse();
	}

	@Test
	void acquireAsyncWhenHeldForTheWholeWaitThenEmpty() throws Exception {
		holdInOtherThread(first().obtain("async-held"), Duration.ofSeconds(30));
		LeasedLock lock = second().obtain("async-held");
		assertThat(lock.acquireAsync(Duration.ZERO).get(10, TimeUnit.SECONDS)).isEmpty();
		assertThat(lock.acquireAsync(Duration.ofMillis(500), Duration.ofSeconds(30)).get(10, TimeUnit.SECONDS))
			.isEmpty();
		assertThat(localKeyCount(second())).isZero();
	}

	@Test
	void cancellingAnAsyncAcquisitionGivesItUp() throws Exception {
		LeasedLock holder = first().obtain("async-cancelled");
		holder.lock();
		CompletableFuture<Optional<LockHandle>> waiting = second().obtain("async-cancelled")
			.acquireAsync(Duration.ofSeconds(30), Duration.ofSeconds(30));
		assertThat(waiting.cancel(false)).isTrue();
		holder.unlock();
		// The key comes free for others, and no state of the acquisition stays behind. An
		// attempt already on its way to Redis may take the key for a moment before it is
		// undone: hence a wait. (InMemoryLockRegistryTests also checks that the
		// acquisition leaves the line at once.)
		LeasedLock next = second().obtain("async-cancelled");
		assertThat(next.tryLock(Duration.ofSeconds(10))).isTrue();
		next.unlock();
		// The cancelled attempt's late answer, if it took the key, is undone too.
		await().atMost(Duration.ofSeconds(10)).until(() -> !next.isLocked());
		await().atMost(Duration.ofSeconds(10)).until(() -> localKeyCount(second()) == 0);
	}

	@Test
	void anAsyncHoldWithALeaseOfItsOwnCanBeExtendedAndKeptAfterItsRelease() throws Exception {
		LockHandle handle = first().obtain("async-kept")
			.acquireAsync(Duration.ZERO, shortLease())
			.get(10, TimeUnit.SECONDS)
			.orElseThrow();
		assertThat(handle.extend(Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS)).isTrue();
		// Past the lease it was taken with: only the new one keeps it held.
		Thread.sleep(shortLease().toMillis() + 200);
		assertThat(handle.isHeld()).isTrue();
		handle.checkHeld();
		handle.releaseKeepingFor(shortLease()).get(10, TimeUnit.SECONDS);
		LeasedLock elsewhere = second().obtain("async-kept");
		assertThat(elsewhere.tryLock()).isFalse();
		assertThat(elsewhere.tryLock(Duration.ofSeconds(10))).isTrue();
		elsewhere.unlock();
		assertThat(handle.extend(Duration.ofSeconds(30)).get(10, TimeUnit.SECONDS)).isFalse();
	}

	/**
	 * Take the lock in a new thread and keep it, without unlocking, until its lease ends.
	 * @param lock the lock
	 * @param lease its lease
	 * @return the fencing token of that hold
	 * @throws Exception if the thread failed
	 */
	protected long holdInOtherThread(LeasedLock lock, Duration lease) throws Exception {
		return this.threads.submit(() -> {
			assertThat(lock.tryLock(Duration.ofSeconds(10), lease)).isTrue();
			return lock.fencingToken();
		}).get(15, TimeUnit.SECONDS);
	}

}
