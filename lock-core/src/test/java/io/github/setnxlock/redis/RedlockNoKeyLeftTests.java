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
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.SharedResources;
import io.github.setnxlock.test.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redlock over five real Redis servers leaves no key behind: once every holder has
 * released, no node holds the lock's key a few round trips later, whatever answers were
 * still on their way when the holders decided. A key left on a minority node would refuse
 * that node's part of the next acquisitions for up to a lease, one tolerated failure
 * less.
 *
 * @author setnx-lock authors
 */
@TestInstance(Lifecycle.PER_CLASS)
@ResourceLock(SharedResources.CORES)
class RedlockNoKeyLeftTests {

	private static final String PREFIX = SetnxLockSettings.defaults().keyPrefix();

	/** A lease much longer than the bound below, so that a key left behind shows. */
	private static final SetnxLockSettings SETTINGS = SetnxLockSettings.builder()
		.leaseTime(Duration.ofSeconds(20))
		.nodeTimeout(Duration.ofMillis(500))
		.restartDelay(Duration.ZERO)
		.build();

	/** How soon after the last release no node may hold the key: many round trips. */
	private static final Duration SETTLED = Duration.ofSeconds(2);

	private final List<LockLostEvent> lost = new CopyOnWriteArrayList<>();

	private RedisNodes nodes;

	@BeforeAll
	void startNodes() {
		this.nodes = RedisNodes.start(5);
	}

	@AfterAll
	void stopNodes() {
		this.nodes.close();
	}

	@BeforeEach
	void clear() {
		this.nodes.flushAll();
		this.lost.clear();
	}

	@Test
	void onceTwoContendingRegistriesReleasedEverySectionNoNodeHoldsTheKey() throws Exception {
		try (RedlockClient first = client(); RedlockClient second = client()) {
			for (int round = 0; round < 3; round++) {
				String key = "contended-" + round;
				ExecutorService threads = Executors.newFixedThreadPool(6);
				try {
					List<Future<?>> sections = new ArrayList<>();
					for (int t = 0; t < 6; t++) {
						RedlockClient client = (t % 2 == 0) ? first : second;
						sections.add(threads.submit(() -> {
							for (int i = 0; i < 60; i++) {
								LeasedLock lock = client.registry.obtain(key);
								assertThat(lock.tryLock(Duration.ofSeconds(20))).isTrue();
								lock.unlock();
							}
							return null;
						}));
					}
					for (Future<?> section : sections) {
						section.get(120, TimeUnit.SECONDS);
					}
				}
				finally {
					threads.shutdownNow();
				}
				awaitNoNodeHolds(key);
			}
		}
		assertThat(this.lost).isEmpty();
	}

	/**
	 * A node's {@code SET} runs and its answer is lost with the connection, which cannot
	 * be opened again at once: the hold is decided on the other four and released while
	 * the node is out of reach. A client that refuses commands while disconnected fails
	 * the release there; one that queues them sends the {@code SET} again once it
	 * reconnects, and the release behind it, and the token-acquire script that follows
	 * the refused {@code SET} then finds the key free and takes it.
	 */
	@ParameterizedTest(name = "refusing while disconnected: {0}")
	@ValueSource(booleans = { true, false })
	void aSetWhoseAnswerWasLostLeavesNoKeyOnItsNodeAfterTheRelease(boolean refusing) throws Exception {
		try (TcpProxy proxy = TcpProxy.start(this.nodes.node(4));
				RedlockClient client = RedlockClient.through(this.nodes, proxied(4, proxy), refusing, SETTINGS,
						List.of(listener()))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("set-again");
			proxy.loseRepliesTo("\r\nSET\r\n", 1, true);
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			await().atMost(Duration.ofSeconds(5)).until(() -> proxy.lostReplies() == 1);
			lock.unlock();
			proxy.restore();
			awaitNoNodeHolds("set-again");
		}
		assertThat(this.lost).isEmpty();
	}

	/**
	 * The key lives on every node; one node's connection breaks as the release is sent,
	 * so that the node refuses it, and comes back at once.
	 */
	@Test
	void aReleaseANodeRefusedWhileItsClientReconnectedIsSentThereAgain() throws Exception {
		try (TcpProxy proxy = TcpProxy.start(this.nodes.node(4));
				RedlockClient client = RedlockClient.through(this.nodes, proxied(4, proxy), true, SETTINGS,
						List.of(listener()))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("refused");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.nodes.holdersOf(PREFIX + "refused") == 5);
			proxy.cut();
			lock.unlock();
			proxy.restore();
			awaitNoNodeHolds("refused");
		}
		assertThat(this.lost).isEmpty();
	}

	/**
	 * Three nodes run the release and lose its answer with their connections; before the
	 * client (Lettuce's default, which sends unanswered commands again) can reconnect,
	 * another registry takes the lock on every node. The release sent again finds the
	 * other registry's key on a majority, which is no loss: the client reconnected since
	 * it sent the release.
	 */
	@Test
	void aReleaseSentAgainAfterAnotherRegistryTookTheLockIsNoLoss() throws Exception {
		SetnxLockSettings patient = SETTINGS.toBuilder().nodeTimeout(Duration.ofSeconds(5)).build();
		List<TcpProxy> proxies = new ArrayList<>();
		for (int i = 0; i < this.nodes.size(); i++) {
			proxies.add((i < 3) ? TcpProxy.start(this.nodes.node(i)) : null);
		}
		ExecutorService holder = Executors.newSingleThreadExecutor();
		try (RedlockClient client = RedlockClient.through(this.nodes, proxies, false, patient, List.of(listener()));
				RedlockClient other = client()) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("taken-between");
			holder.submit(() -> lock.tryLock(Duration.ofSeconds(5))).get(10, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(5)).until(() -> this.nodes.holdersOf(PREFIX + "taken-between") == 5);
			for (int i = 0; i < 3; i++) {
				proxies.get(i).loseRepliesTo(TokenLockCommands.RELEASE.sha1(), 1, true);
			}
			Future<?> unlocked = holder.submit(lock::unlock);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> proxies.stream().limit(3).allMatch((proxy) -> proxy.lostReplies() == 1));
			LeasedLock taken = other.registry.obtain("taken-between");
			assertThat(taken.tryLock(Duration.ofSeconds(2))).isTrue();
			for (int i = 0; i < 3; i++) {
				proxies.get(i).restore();
			}
			unlocked.get(10, TimeUnit.SECONDS);
			assertThat(this.lost).isEmpty();
			// The other registry's key stays, and its release leaves none.
			assertThat(this.nodes.holdersOf(PREFIX + "taken-between")).isEqualTo(5);
			assertThat(taken.isHeldByCurrentThread()).isTrue();
			taken.unlock();
			awaitNoNodeHolds("taken-between");
		}
		finally {
			holder.shutdownNow();
			proxies.stream().filter(Objects::nonNull).forEach(TcpProxy::close);
		}
	}

	/**
	 * Connect every node and load the scripts, so that a lost answer is the command's,
	 * not a handshake's or a script load's.
	 */
	private static void warmUp(RedlockClient client) throws InterruptedException {
		LeasedLock warm = client.registry.obtain("warm-up");
		assertThat(warm.tryLock(Duration.ofSeconds(5))).isTrue();
		warm.fencingToken();
		warm.unlock();
	}

	private List<TcpProxy> proxied(int node, TcpProxy proxy) {
		List<TcpProxy> proxies = new ArrayList<>(Collections.nCopies(this.nodes.size(), (TcpProxy) null));
		proxies.set(node, proxy);
		return proxies;
	}

	/**
	 * Wait until no node holds the key, failing with what the nodes that still do hold
	 * once {@link #SETTLED} has passed.
	 */
	private void awaitNoNodeHolds(String key) {
		await().atMost(SETTLED)
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(held(key)).as("nodes holding '%s' after every release", key).isEmpty());
	}

	/** Return what each node that holds the key holds, and for how long. */
	private List<String> held(String key) {
		List<String> held = new ArrayList<>();
		for (int i = 0; i < this.nodes.size(); i++) {
			Object value = this.nodes.node(i).execute("GET", PREFIX + key);
			if (value != null) {
				held.add(this.nodes.name(i) + " " + ((String) value).replaceAll("^[0-9a-f]+:", "…:") + " for "
						+ this.nodes.node(i).execute("PTTL", PREFIX + key) + " ms");
			}
		}
		return held;
	}

	private LockListener listener() {
		return new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				RedlockNoKeyLeftTests.this.lost.add(event);
			}

		};
	}

	private RedlockClient client() {
		RedlockClient client = new RedlockClient(this.nodes, SETTINGS, Duration.ofSeconds(2), List.of(listener()));
		client.registry.obtain("warm-up").isLocked();
		return client;
	}

}
