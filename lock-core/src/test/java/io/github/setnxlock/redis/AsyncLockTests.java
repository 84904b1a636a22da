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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Asynchronous holds ({@link LeasedLock#acquireAsync}): acquired without a thread
 * waiting, released from any thread, renewed, fenced, given up when cancelled, and
 * exclusive with every other hold of the key, asynchronous or not, in this registry and
 * in others.
 *
 * @author setnx-lock authors
 */
class AsyncLockTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final ScheduledExecutorService workers = Executors.newScheduledThreadPool(4);

	@AfterEach
	void stopWorkers() {
		this.workers.shutdownNow();
	}

	@Test
	void aHandleHoldsTheKeyUntilReleasedFromAnotherThreadAndOnlyOnce() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("async:simple", "simple");
			LockHandle handle = lock.acquireAsync(Duration.ZERO).get(5, TimeUnit.SECONDS).orElseThrow();
			assertThat(handle.isHeld()).isTrue();
			assertThat(handle.key()).isEqualTo("async:simple");
			assertThat(handle.name()).isEqualTo("simple");
			assertThat(server().execute("EXISTS", "lock:async:simple")).isEqualTo(1L);
			// Not the caller's thread's: the thread-bound view does not see it.
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertThat(lock.tryLock()).isFalse();
			CompletableFuture.supplyAsync(handle::release, this.workers)
				.get(5, TimeUnit.SECONDS)
				.get(5, TimeUnit.SECONDS);
			assertThat(handle.isHeld()).isFalse();
			assertThat(server().execute("EXISTS", "lock:async:simple")).isEqualTo(0L);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> handle.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class)
				.withMessageContaining("released already");
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(handle::checkHeld);
			assertThat(client.registry.engine().stats().localKeys()).isZero();
		}
	}

	@Test
	void sixFuturesOfOneKeyFromTwoRegistriesRunOneAfterAnother() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			List<long[]> spans = new CopyOnWriteArrayList<>();
			List<CompletableFuture<Void>> calls = new ArrayList<>();
			long start = System.nanoTime();
			for (int i = 0; i < 6; i++) {
				TestClient client = (i % 2 == 0) ? first : second;
				LeasedLock lock = client.registry.obtain("async:orders:42");
				calls.add(lock.acquireAsync(Duration.ofSeconds(10))
					.thenCompose((handle) -> workOf150Millis(handle.orElseThrow(), spans)));
			}
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
			assertThat(spans).hasSize(6);
			spans.sort((a, b) -> Long.compare(a[0], b[0]));
			for (int i = 1; i < spans.size(); i++) {
				assertThat(spans.get(i)[0]).as("start of work %d after the end of the one before", i)
					.isGreaterThanOrEqualTo(spans.get(i - 1)[1]);
			}
			assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
			assertThat(server().execute("EXISTS", "lock:async:orders:42")).isEqualTo(0L);
		}
	}

	@Test
	void differentKeysAreHeldAtOnce() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LockHandle one = client.registry.obtain("async:a")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			LockHandle two = client.registry.obtain("async:b")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			assertThat(one.isHeld()).isTrue();
			assertThat(two.isHeld()).isTrue();
			CompletableFuture.allOf(one.release(), two.release()).get(5, TimeUnit.SECONDS);
			assertThat(server().execute("DBSIZE")).isEqualTo(0L);
		}
	}

	@Test
	void waitersHoldNoThreadAndAreServedInTurn() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("async:line");
			LockHandle holder = lock.acquireAsync(Duration.ZERO).get(5, TimeUnit.SECONDS).orElseThrow();
			int threadsBefore = Thread.activeCount();
			List<CompletableFuture<Optional<LockHandle>>> waiters = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				waiters.add(lock.acquireAsync(Duration.ofSeconds(30)));
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:async:line").slotWaiters() == 1000);
			// A thousand waiting acquisitions, and not a thread each (other test classes
			// run in this JVM at the same time and start threads of their own).
			assertThat(Thread.activeCount() - threadsBefore).isLessThan(500);
			// None of the engine's callback threads
			// waits for the lock (other test classes run in this JVM at the same time, so
			// threads elsewhere may wait for locks of their own).
			assertThat(Thread.getAllStackTraces().entrySet())
				.filteredOn((thread) -> thread.getKey().getName().startsWith("setnx-lock-async"))
				.noneSatisfy((thread) -> assertThat(thread.getValue()).anySatisfy(
						(frame) -> assertThat(frame.getClassName()).isIn("io.github.setnxlock.redis.engine.Slot",
								"io.github.setnxlock.redis.engine.LocalHandoff$ReleaseSignal",
								"io.github.setnxlock.redis.engine.Waits")));
			holder.release().get(5, TimeUnit.SECONDS);
			for (CompletableFuture<Optional<LockHandle>> waiter : waiters) {
				LockHandle handle = waiter.get(10, TimeUnit.SECONDS).orElseThrow();
				for (CompletableFuture<Optional<LockHandle>> other : waiters) {
					assertThat(other != waiter && other.isDone() && other.join().orElseThrow().isHeld()).isFalse();
				}
				handle.release().get(5, TimeUnit.SECONDS);
			}
			assertThat(server().execute("EXISTS", "lock:async:line")).isEqualTo(0L);
		}
	}

	@Test
	void aWaitThatEndsGivesEmptyAndTheHolderKeepsTheLock() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			LockHandle holder = first.registry.obtain("async:busy")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			long start = System.nanoTime();
			assertThat(
					second.registry.obtain("async:busy").acquireAsync(Duration.ofMillis(300)).get(5, TimeUnit.SECONDS))
				.isEmpty();
			assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
			// A second waiter of the holder's own registry waits in its slot line
			// instead.
			assertThat(
					first.registry.obtain("async:busy").acquireAsync(Duration.ofMillis(100)).get(5, TimeUnit.SECONDS))
				.isEmpty();
			assertThat(holder.isHeld()).isTrue();
			holder.release().get(5, TimeUnit.SECONDS);
			assertThat(first.registry.engine().stats().localKeys()).isZero();
			assertThat(second.registry.engine().stats().localKeys()).isZero();
		}
	}

	@Test
	void aCancelledWaitLeavesTheLineAndTakesNothing() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = first.registry.obtain("async:cancel");
			LockHandle holder = lock.acquireAsync(Duration.ZERO).get(5, TimeUnit.SECONDS).orElseThrow();
			// One waiting in the holder's slot line, one waiting on Redis in another
			// registry.
			CompletableFuture<Optional<LockHandle>> inLine = lock.acquireAsync(Duration.ofSeconds(30));
			CompletableFuture<Optional<LockHandle>> onRedis = second.registry.obtain("async:cancel")
				.acquireAsync(Duration.ofSeconds(30));
			Handshakes.awaitWaiterOnRedis(second.registry, "lock:async:cancel");
			assertThat(inLine.cancel(false)).isTrue();
			assertThat(onRedis.cancel(false)).isTrue();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> second.registry.engine().stats().localKeys() == 0
						&& first.registry.engine().stats().keyState("lock:async:cancel").slotWaiters() == 0);
			holder.release().get(5, TimeUnit.SECONDS);
			// Nobody took the key after the release: the next comer gets it at once.
			assertThat(server().execute("EXISTS", "lock:async:cancel")).isEqualTo(0L);
			assertThat(second.registry.obtain("async:cancel").tryLock()).isTrue();
			second.registry.obtain("async:cancel").unlock();
		}
	}

	@Test
	void aCallerThatTimesTheFutureOutGivesTheAcquisitionUp() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock held = first.registry.obtain("async:timed-out");
			held.lock();
			CompletableFuture<Optional<LockHandle>> onRedis = second.registry.obtain("async:timed-out")
				.acquireAsync(Duration.ofSeconds(30))
				.orTimeout(200, TimeUnit.MILLISECONDS);
			CompletableFuture<Optional<LockHandle>> inLine = first.registry.obtain("async:timed-out")
				.acquireAsync(Duration.ofSeconds(30))
				.orTimeout(200, TimeUnit.MILLISECONDS);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> onRedis.get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(java.util.concurrent.TimeoutException.class);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> inLine.get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(java.util.concurrent.TimeoutException.class);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> second.registry.engine().stats().localKeys() == 0
						&& first.registry.engine().stats().keyState("lock:async:timed-out").slotWaiters() == 0);
			held.unlock();
			assertThat(server().execute("EXISTS", "lock:async:timed-out")).isEqualTo(0L);
			assertThat(first.registry.engine().stats().localKeys()).isZero();
		}
	}

	@Test
	void closingTheRegistryFailsTheAcquisitionsThatWait() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults())) {
			TestClient second = new TestClient(server(), SetnxLockSettings.defaults());
			LeasedLock held = first.registry.obtain("async:closing");
			held.lock();
			CompletableFuture<Optional<LockHandle>> onRedis = second.registry.obtain("async:closing")
				.acquireAsync(Duration.ofSeconds(30));
			CompletableFuture<Optional<LockHandle>> inLine = second.registry.obtain("async:closing")
				.acquireAsync(Duration.ofSeconds(30));
			Handshakes.awaitWaiterOnRedis(second.registry, "lock:async:closing");
			second.close();
			for (CompletableFuture<Optional<LockHandle>> waiting : List.of(onRedis, inLine)) {
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
					.withCauseInstanceOf(IllegalStateException.class)
					.withMessageContaining("closed");
			}
			held.unlock();
		}
	}

	@Test
	void closingTheRegistryEndsTheWaitsOfThreadsAsWell() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults())) {
			TestClient second = new TestClient(server(), SetnxLockSettings.defaults());
			LeasedLock held = first.registry.obtain("closing-threads");
			held.lock();
			Future<Boolean> onRedis = threads
				.submit(() -> second.registry.obtain("closing-threads").tryLock(30, TimeUnit.SECONDS));
			Handshakes.awaitWaiterOnRedis(second.registry, "lock:closing-threads");
			Future<Boolean> inLine = threads
				.submit(() -> second.registry.obtain("closing-threads").tryLock(30, TimeUnit.SECONDS));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> second.registry.engine().stats().keyState("lock:closing-threads").slotWaiters() == 1);
			second.close();
			for (Future<Boolean> waiting : List.of(onRedis, inLine)) {
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
					.withCauseInstanceOf(IllegalStateException.class)
					.withMessageContaining("closed");
			}
			held.unlock();
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void anAttemptCancelledWhileRedisStallsIsUndoneWhenItLands() throws Exception {
		try (TcpProxy proxy = TcpProxy.start(server());
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						SetnxLockSettings.defaults(), List.of())) {
			LeasedLock lock = client.registry.obtain("async:stalled");
			lock.tryLock();
			lock.unlock();
			proxy.stall();
			CompletableFuture<Optional<LockHandle>> acquisition = lock.acquireAsync(Duration.ofSeconds(30));
			Thread.sleep(100);
			assertThat(acquisition.cancel(false)).isTrue();
			proxy.restore();
			// The attempt reached Redis after it was given up, took the key, and was
			// undone.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> client.registry.engine().stats().localKeys() == 0
						&& Long.valueOf(0).equals(server().execute("EXISTS", "lock:async:stalled")));
			assertThat(lock.tryLock()).isTrue();
			lock.unlock();
		}
	}

	@Test
	void aWaitWhileRedisStallsEndsWithItsWaitTime() throws Exception {
		try (TcpProxy proxy = TcpProxy.start(server());
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(30)),
						SetnxLockSettings.defaults(), List.of())) {
			LeasedLock lock = client.registry.obtain("async:no-answer");
			lock.tryLock();
			lock.unlock();
			// An answer to the background script load that passes the proxy as it stalls
			// would be Redis answering during the wait: contention, not silence.
			client.registry.warmedUp().join();
			proxy.stall();
			// Well within the client's command timeout of 30 s.
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> lock.acquireAsync(Duration.ofMillis(300)).get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAccessException.class)
				.withMessageContaining("Redis did not answer within the wait for lock 'async:no-answer'");
			proxy.restore();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> Long.valueOf(0).equals(server().execute("EXISTS", "lock:async:no-answer")));
		}
	}

	@Test
	void aRenewedHoldOutlivesItsLeaseAndAnExplicitLeaseEnds() throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder().leaseTime(Duration.ofMillis(300)).build();
		try (TestClient client = new TestClient(server(), settings)) {
			LockHandle renewed = client.registry.obtain("async:renewed")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			LockHandle leased = client.registry.obtain("async:leased")
				.acquireAsync(Duration.ZERO, Duration.ofMillis(200))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			Thread.sleep(1000);
			assertThat(renewed.isHeld()).isTrue();
			assertThat(server().execute("EXISTS", "lock:async:renewed")).isEqualTo(1L);
			assertThat(leased.isHeld()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(leased::checkHeld);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> leased.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			renewed.release().get(5, TimeUnit.SECONDS);
			assertThat(server().execute("DBSIZE")).isEqualTo(0L);
		}
	}

	@Test
	void aHoldWithALeaseOfItsOwnIsExtendedWhileHeldAndNotOnceLost() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LockHandle leased = client.registry.obtain("async:extended")
				.acquireAsync(Duration.ZERO, Duration.ofSeconds(1))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			assertThat(leased.extend(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS)).isTrue();
			Thread.sleep(1500);
			assertThat(leased.isHeld()).isTrue();
			assertThat((Long) server().execute("PTTL", "lock:async:extended")).isGreaterThan(3000L);
			// Shorter works too: the new lease replaces what was left.
			assertThat(leased.extend(Duration.ofMillis(200)).get(5, TimeUnit.SECONDS)).isTrue();
			Thread.sleep(400);
			assertThat(leased.isHeld()).isFalse();
			assertThat(leased.extend(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS)).isFalse();
			assertThat(server().execute("EXISTS", "lock:async:extended")).isEqualTo(0L);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> leased.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			LockHandle taken = client.registry.obtain("async:taken")
				.acquireAsync(Duration.ZERO, Duration.ofSeconds(5))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			server().execute("SET", "lock:async:taken", "someone-else");
			assertThat(taken.extend(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS)).isFalse();
			assertThat(taken.isHeld()).isFalse();
			assertThat(server().execute("GET", "lock:async:taken")).isEqualTo("someone-else");
			LockHandle renewed = client.registry.obtain("async:renewed-not-extended")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> renewed.extend(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class)
				.withMessageContaining("renewed by the registry");
			renewed.release().get(5, TimeUnit.SECONDS);
			taken.release().exceptionally((lost) -> null).get(5, TimeUnit.SECONDS);
			assertThat(client.registry.engine().stats().localKeys()).isZero();
		}
	}

	@Test
	void aHoldWhoseKeyWasTakenFailsItsReleaseWithLockLost() throws Exception {
		List<String> lost = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void lockLost(io.github.setnxlock.LockLostEvent event) {
				lost.add(event.key() + " " + event.reason());
			}

		};
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults(), Duration.ofSeconds(2),
				List.of(listener))) {
			LockHandle handle = client.registry.obtain("async:stolen")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			server().execute("SET", "lock:async:stolen", "someone-else");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> handle.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class)
				.withMessageContaining("another client took it over");
			assertThat(server().execute("GET", "lock:async:stolen")).isEqualTo("someone-else");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> lost.contains("async:stolen RELEASE_FOUND_ANOTHER_OWNER"));
		}
	}

	@Test
	void aRenewalThatFindsAnAsynchronousHoldsKeyTakenLosesTheHoldAndSaysSo() throws Exception {
		List<io.github.setnxlock.LockLostEvent> lost = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void lockLost(io.github.setnxlock.LockLostEvent event) {
				lost.add(event);
			}

		};
		// A lease of 1 s is renewed every third of it, long enough that a renewal
		// delayed by a loaded machine still lands in time.
		SetnxLockSettings settings = SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(1)).build();
		try (TestClient client = new TestClient(server(), settings, Duration.ofSeconds(2), List.of(listener))) {
			LockHandle handle = client.registry.obtain("async:renewal-stolen", "stolen-work")
				.acquireAsync(Duration.ZERO)
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			long token = handle.fencingToken();
			// Nobody releases the hold: only the watchdog can find the key taken.
			server().execute("SET", "lock:async:renewal-stolen", "someone-else", "PX", "30000");
			await().atMost(Duration.ofSeconds(10)).until(() -> !lost.isEmpty());
			assertThat(lost).singleElement().satisfies((event) -> {
				assertThat(event.reason()).isEqualTo(io.github.setnxlock.LockLostEvent.Reason.RENEWAL_REJECTED);
				assertThat(event.key()).isEqualTo("async:renewal-stolen");
				assertThat(event.name()).isEqualTo("stolen-work");
				assertThat(event.fencingToken()).isEqualTo(token);
				assertThat(event.holder()).isEqualTo("async (from " + Thread.currentThread().getName() + ")");
			});
			assertThat(handle.isHeld()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::checkHeld);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> handle.release().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			// The other client's key is left alone, and the loss was reported once.
			assertThat(server().execute("GET", "lock:async:renewal-stolen")).isEqualTo("someone-else");
			assertThat(lost).hasSize(1);
			await().atMost(Duration.ofSeconds(5)).until(() -> client.registry.engine().stats().renewing() == 0);
			server().execute("DEL", "lock:async:renewal-stolen");
		}
	}

	@Test
	void anAsynchronousWaiterTakesItsTurnInLineWithThreadsAndTheKeyIsHandedOverLocally() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("async:handed");
			lock.lock();
			String ownerToken = (String) server().execute("GET", "lock:async:handed");
			List<String> turns = new CopyOnWriteArrayList<>();
			// First in line: an asynchronous acquisition; second: a thread.
			CompletableFuture<Optional<LockHandle>> first = lock.acquireAsync(Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:async:handed").slotWaiters() == 1);
			CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
				lock.lock();
				try {
					turns.add("thread " + server().execute("GET", "lock:async:handed"));
				}
				finally {
					lock.unlock();
				}
			}, this.workers);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> client.registry.engine().stats().keyState("lock:async:handed").slotWaiters() == 2);
			lock.unlock();
			LockHandle handle = first.get(10, TimeUnit.SECONDS).orElseThrow();
			turns.add("async " + server().execute("GET", "lock:async:handed"));
			// The thread that came later still waits while the asynchronous hold is held.
			assertThat(second).isNotDone();
			assertThat(client.registry.engine().stats().localHandoffs()).isEqualTo(1);
			handle.release().get(10, TimeUnit.SECONDS);
			second.get(10, TimeUnit.SECONDS);
			// Served in the order they came, and the key never left Redis between them:
			// each took the first hold's owner token over (a new acquisition writes a
			// new one).
			assertThat(turns).containsExactly("async " + ownerToken, "thread " + ownerToken);
			assertThat(client.registry.engine().stats().localHandoffs()).isEqualTo(2);
			assertThat(server().execute("EXISTS", "lock:async:handed")).isEqualTo(0L);
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void fencingTokensIncreaseOverAsynchronousAndThreadHolds() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			long previous = 0;
			for (int i = 0; i < 10; i++) {
				LeasedLock lock = ((i % 2 == 0) ? first : second).registry.obtain("async:fenced");
				long token;
				if (i % 3 == 0) {
					lock.lock();
					token = lock.fencingToken();
					lock.unlock();
				}
				else {
					LockHandle handle = lock.acquireAsync(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS).orElseThrow();
					token = (i % 2 == 0) ? handle.fencingTokenAsync().get(5, TimeUnit.SECONDS) : handle.fencingToken();
					assertThat(handle.fencingToken()).isEqualTo(token);
					handle.release().get(5, TimeUnit.SECONDS);
				}
				assertThat(token).isGreaterThan(previous);
				previous = token;
			}
		}
	}

	@Test
	void threadsAndAsynchronousHoldsOfTwoRegistriesNeverOverlap() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			AtomicInteger inside = new AtomicInteger();
			AtomicInteger overlaps = new AtomicInteger();
			AtomicInteger done = new AtomicInteger();
			List<CompletableFuture<Void>> chains = new ArrayList<>();
			for (int chain = 0; chain < 8; chain++) {
				TestClient client = (chain % 2 == 0) ? first : second;
				chains.add(asyncRounds(client.registry.obtain("async:mixed"), 50, inside, overlaps, done));
			}
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				LeasedLock lock = ((t % 2 == 0) ? first : second).registry.obtain("async:mixed");
				Thread thread = new Thread(() -> {
					for (int round = 0; round < 50; round++) {
						lock.lock();
						try {
							if (inside.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							inside.decrementAndGet();
							done.incrementAndGet();
						}
						finally {
							lock.unlock();
						}
					}
				});
				thread.start();
				threads.add(thread);
			}
			CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			for (Thread thread : threads) {
				thread.join(60_000);
			}
			assertThat(overlaps).hasValue(0);
			assertThat(done).hasValue(8 * 50 + 4 * 50);
			assertThat(server().execute("EXISTS", "lock:async:mixed")).isEqualTo(0L);
			assertThat(first.registry.engine().stats().localHandoffs()).isPositive();
		}
	}

	private CompletableFuture<Void> asyncRounds(LeasedLock lock, int rounds, AtomicInteger inside,
			AtomicInteger overlaps, AtomicInteger done) {
		if (rounds == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return lock.acquireAsync(Duration.ofSeconds(30)).thenComposeAsync((acquired) -> {
			LockHandle handle = acquired.orElseThrow();
			if (inside.incrementAndGet() != 1) {
				overlaps.incrementAndGet();
			}
			inside.decrementAndGet();
			done.incrementAndGet();
			return handle.release();
		}, this.workers).thenCompose((released) -> asyncRounds(lock, rounds - 1, inside, overlaps, done));
	}

	/**
	 * Work of 150 ms under the hold, finished on another thread, which releases it.
	 */
	private CompletableFuture<Void> workOf150Millis(LockHandle handle, List<long[]> spans) {
		long begin = System.nanoTime();
		CompletableFuture<Void> work = new CompletableFuture<>();
		this.workers.schedule(() -> {
			spans.add(new long[] { begin, System.nanoTime() });
			work.complete(null);
		}, 150, TimeUnit.MILLISECONDS);
		return work.thenCompose((finished) -> handle.release());
	}

	private static RedisServer server() {
		return redis.server();
	}

}
