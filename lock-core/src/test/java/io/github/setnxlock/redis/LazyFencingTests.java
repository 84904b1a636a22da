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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The token protocol draws a hold's fencing token lazily (DESIGN: "Fencing token"): an
 * acquisition is a plain {@code SET NX PX}, the first {@code fencingToken()} of a hold
 * draws, in one step with a check that the key is still the holder's, and later calls
 * return the same token. Tokens still follow the order of the holds that asked for one.
 *
 * @author setnx-lock authors
 */
class LazyFencingTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<LockLostEvent> lost = new CopyOnWriteArrayList<>();

	private final LockListener listener = new LockListener() {

		@Override
		public void lockLost(LockLostEvent event) {
			LazyFencingTests.this.lost.add(event);
		}

	};

	@BeforeEach
	void resetCommandStats() {
		server().execute("CONFIG", "RESETSTAT");
	}

	/**
	 * A closed registry draws nothing more: a thread's first fencingToken() is refused
	 * rather than sent to Redis.
	 */
	@Test
	void aTokenFirstAskedForAfterTheRegistryClosedIsRefused() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("closed-before-the-draw");
			lock.lock();
			client.registry.close();
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::fencingToken)
				.withMessageContaining("'closed-before-the-draw'")
				.withMessageContaining("closed");
			assertThat(server().commandStat("time", "calls")).as("draws sent").isZero();
		}
	}

	/**
	 * A thread that waits for its draw when the registry closes stops waiting then, as at
	 * its hold's deadline, however long Redis takes to answer.
	 */
	@Test
	void aThreadWaitingForItsTokenWhenTheRegistryClosesStopsWaiting() throws Exception {
		// The draw itself, not the warm-up's SCRIPT EXISTS that names the script too.
		String draw = "EVALSHA\r\n$40\r\n" + TokenLockCommands.FENCE_DRAW.sha1();
		try (TcpProxy proxy = TcpProxy.start(server());
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(120)),
						SetnxLockSettings.defaults(), List.of())) {
			LeasedLock lock = client.registry.obtain("closed-during-the-draw");
			proxy.delayRepliesTo(draw, Duration.ofSeconds(60));
			CompletableFuture<Long> token = new CompletableFuture<>();
			Thread holder = new Thread(() -> {
				try {
					lock.lock();
					token.complete(lock.fencingToken());
				}
				catch (Throwable ex) {
					token.completeExceptionally(ex);
				}
			});
			holder.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> proxy.delayedRequests(draw) > 0 || token.isDone());
			client.registry.close();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> token.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class)
				.withMessageContaining("closed");
		}
	}

	@Test
	void holdsThatNeverAskDrawNothing() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			for (int i = 0; i < 50; i++) {
				LeasedLock lock = client.registry.obtain("unfenced-" + (i % 5));
				lock.lock();
				lock.unlock();
			}
			assertThat(server().execute("DBSIZE")).isEqualTo(0L);
			// The draw is the only user of the server clock.
			assertThat(server().commandStat("time", "calls")).isZero();
			// Fifty acquisitions, each one SET and nothing else.
			assertThat(server().commandStat("set", "calls")).isEqualTo(50);
		}
	}

	@Test
	void theFirstRequestDrawsAndLaterOnesReturnTheSameToken() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults())) {
			LeasedLock lock = client.registry.obtain("fenced");
			lock.lock();
			assertThat(server().execute("EXISTS", "{lock:fenced}:fence")).isEqualTo(0L);
			long token = lock.fencingToken();
			assertThat(token).isPositive();
			assertThat(server().execute("GET", "{lock:fenced}:fence")).isEqualTo(Long.toString(token));
			// A reentrant entry is the same hold, with the same token.
			lock.lock();
			assertThat(lock.fencingToken()).isEqualTo(token);
			lock.unlock();
			assertThat(lock.fencingToken()).isEqualTo(token);
			assertThat(server().commandStat("time", "calls")).isEqualTo(1);
			assertThat(client.registry.operations().heldLocks()).singleElement()
				.satisfies((held) -> assertThat(held.fencingToken()).isEqualTo(token));
			lock.unlock();
		}
	}

	@Test
	void tokensFollowTheHoldsThatAskedWhateverHoldsInBetweenDid() throws Exception {
		try (TestClient first = new TestClient(server(), SetnxLockSettings.defaults());
				TestClient second = new TestClient(server(), SetnxLockSettings.defaults())) {
			long previous = 0;
			for (int i = 0; i < 20; i++) {
				LeasedLock lock = ((i % 2 == 0) ? first : second).registry.obtain("ordered");
				lock.lock();
				// Every third hold does not ask: it leaves no gap and no draw behind.
				if (i % 3 != 2) {
					long token = lock.fencingToken();
					assertThat(token).as("hold %d", i).isGreaterThan(previous);
					previous = token;
				}
				lock.unlock();
			}
			// The counter counts on after a Redis that lost it (a restart without
			// persistence): the server clock keeps the next token above the last.
			server().execute("DEL", "{lock:ordered}:fence");
			LeasedLock lock = first.registry.obtain("ordered");
			lock.lock();
			assertThat(lock.fencingToken()).isGreaterThan(previous);
			lock.unlock();
		}
	}

	@Test
	void aDrawThatFindsTheKeyTakenEndsTheHoldAndDrawsNothing() throws Exception {
		try (TestClient client = new TestClient(server(), SetnxLockSettings.defaults(), Duration.ofSeconds(2),
				List.of(this.listener))) {
			LeasedLock lock = client.registry.obtain("taken");
			lock.lock();
			// Another client's write, within the holder's lease (an operator, a client
			// that ignores the lock): the key is no longer the holder's.
			server().execute("SET", "lock:taken", "someone-else");
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::fencingToken)
				.withMessageContaining("Lock 'taken' was lost when its fencing token was drawn")
				.withMessageContaining("the draw of its fencing token found it taken over or deleted");
			assertThat(server().execute("EXISTS", "{lock:taken}:fence")).isEqualTo(0L);
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			await().atMost(Duration.ofSeconds(5)).until(() -> !this.lost.isEmpty());
			assertThat(this.lost).singleElement().satisfies((event) -> {
				assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_REJECTED);
				assertThat(event.fencingToken()).isZero();
			});
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			// The other client's key is left as it is.
			assertThat(server().execute("GET", "lock:taken")).isEqualTo("someone-else");
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void aDrawThatCannotReachRedisKeepsTheHoldAndTheNextRequestDraws() throws Exception {
		try (TcpProxy proxy = TcpProxy.start(server());
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofMillis(300)),
						SetnxLockSettings.defaults(), List.of(this.listener))) {
			LeasedLock lock = client.registry.obtain("unreachable");
			lock.lock();
			proxy.stall();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::fencingToken)
				.withMessageContaining("Could not draw the fencing token of lock 'unreachable'")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("unreachable"));
			proxy.restore();
			// The hold is untouched (its lease is 30 s), and the next request draws.
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			long token = lock.fencingToken();
			assertThat(token).isPositive();
			assertThat(lock.fencingToken()).isEqualTo(token);
			lock.unlock();
			assertThat(this.lost).isEmpty();
			assertThat(server().execute("EXISTS", "lock:unreachable")).isEqualTo(0L);
		}
	}

	private static RedisServer server() {
		return redis.server();
	}

}
