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
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redlock over five real Redis servers when nodes lag or fail at the wrong moment: a
 * retry is not sent to a node still answering an earlier attempt, an unlock that misses
 * one of the nodes the key lived on still releases, a read that misses nodes which could
 * make a majority fails instead of answering "free", and a frozen minority is waited for
 * once, not on every call.
 *
 * @author setnx-lock authors
 */
@TestInstance(Lifecycle.PER_CLASS)
@ResourceLock(value = SharedResources.CORES, mode = ResourceAccessMode.READ)
class RedlockFaultTests {

	private static final String PREFIX = SetnxLockSettings.defaults().keyPrefix();

	/**
	 * Restarts are the subject of {@link RedlockRestartTests}: here nodes started for the
	 * class count at once.
	 */
	private static final SetnxLockSettings SETTINGS = SetnxLockSettings.builder()
		.nodeTimeout(Duration.ofMillis(500))
		.restartDelay(Duration.ZERO)
		.build();

	private final List<Object> lost = new CopyOnWriteArrayList<>();

	private final List<LockListener.NodeFailure> nodeFailures = new CopyOnWriteArrayList<>();

	private RedisNodes nodes;

	private RedlockClient client;

	@BeforeAll
	void startNodes() {
		this.nodes = RedisNodes.start(5);
	}

	@AfterAll
	void stopNodes() {
		this.nodes.close();
	}

	@BeforeEach
	void connect() {
		this.nodes.flushAll();
		this.lost.clear();
		this.nodeFailures.clear();
		LockListener listener = new LockListener() {
			@Override
			public void lockLost(io.github.setnxlock.LockLostEvent event) {
				RedlockFaultTests.this.lost.add(event);
			}

			@Override
			public void nodeFailed(NodeFailure failure) {
				RedlockFaultTests.this.nodeFailures.add(failure);
			}
		};
		this.client = new RedlockClient(this.nodes, SETTINGS, Duration.ofSeconds(2), List.of(listener));
		// Connect every node before a test freezes one.
		this.client.registry.obtain("warm-up").isLocked();
	}

	@AfterEach
	void disconnect() {
		this.client.close();
	}

	@Test
	void aRetryIsNotSentToANodeThatHasNotAnsweredAnEarlierAttemptsCleanup() throws Exception {
		// Held elsewhere on two nodes: every attempt gets two yes, and needs node 4.
		for (int i : List.of(0, 1)) {
			this.nodes.node(i).execute("SET", PREFIX + "retried", "another-client");
		}
		RedisServer lagging = this.nodes.node(4);
		lagging.execute("CONFIG", "RESETSTAT");
		this.nodes.pause(4);
		try {
			// Longer than the command timeout: the first attempt's answer times out, and
			// its cleanup is sent, while retries go on.
			assertThat(this.client.registry.obtain("retried").tryLock(Duration.ofMillis(3000))).isFalse();
		}
		finally {
			this.nodes.resume(4);
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> List.of(2, 3, 4)
				.stream()
				.allMatch((i) -> (Long) this.nodes.node(i).execute("EXISTS", PREFIX + "retried") == 0L));
		// While frozen the node gets the first attempt's SET only: every retry is held
		// back until its cleanup is answered (without that, each retry of the three
		// seconds adds its SET, and a token-acquire script's SET, behind the cleanup).
		// One retry may reach it after the resume, once the cleanup has answered.
		assertThat(lagging.commandStat("set", "calls")).as(String.valueOf(lagging.info("commandstats")))
			.isLessThanOrEqualTo(2);
	}

	/**
	 * While two of five nodes are frozen, contenders that split the three others between
	 * them would each keep their partial keys for the node timeout on every attempt, and
	 * keep splitting for as long as the freeze lasts: a node that let the node timeout
	 * pass is not waited for again, once the others have answered, until it answers.
	 */
	@Test
	void aFrozenMinorityIsWaitedForOnceAndAgainOnlyAfterItAnswers() throws Exception {
		// Held elsewhere on node 2: an attempt gets yes from nodes 0 and 1 and needs a
		// frozen one.
		this.nodes.node(2).execute("SET", PREFIX + "split", "another-client", "PX", "60000");
		LeasedLock lock = this.client.registry.obtain("split");
		this.nodes.pause(3);
		this.nodes.pause(4);
		try {
			assertThat(lock.tryLock()).isFalse();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.nodeFailures.size() == 2);
			assertThat(this.nodeFailures).extracting(LockListener.NodeFailure::cause)
				.allSatisfy((cause) -> assertThat(cause).isEqualTo("did not answer within 500 ms"));
			this.nodeFailures.clear();
			assertThat(lock.tryLock()).isFalse();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.nodeFailures.size() == 2);
			assertThat(this.nodeFailures).extracting(LockListener.NodeFailure::node)
				.containsExactlyInAnyOrder(this.nodes.name(3), this.nodes.name(4));
			assertThat(this.nodeFailures).extracting(LockListener.NodeFailure::cause)
				.allSatisfy((cause) -> assertThat(cause).contains("lags behind"));
		}
		finally {
			this.nodes.resume(3);
			this.nodes.resume(4);
		}
		// Their late answers end the lag; the key on node 2 does not stop a majority.
		assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		lock.unlock();
		this.nodes.node(3).execute("SET", PREFIX + "split", "another-client", "PX", "60000");
		this.nodeFailures.clear();
		this.nodes.pause(4);
		try {
			// Nodes 2 and 3 held elsewhere, node 4 frozen: it answered since it lagged,
			// so it is waited for again, for the node timeout.
			assertThat(lock.tryLock()).isFalse();
			await().atMost(Duration.ofSeconds(5)).until(() -> !this.nodeFailures.isEmpty());
			assertThat(this.nodeFailures).extracting(LockListener.NodeFailure::cause)
				.containsExactly("did not answer within 500 ms");
		}
		finally {
			this.nodes.resume(4);
		}
		assertThat(this.lost).isEmpty();
	}

	@Test
	void unlockReleasesWhenANodeTheKeyLivedOnFailsAndTheOthersNeverHadIt() throws Exception {
		LeasedLock lock = this.client.registry.obtain("on-three");
		this.nodes.pause(3);
		this.nodes.pause(4);
		try {
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		}
		finally {
			this.nodes.resume(3);
			this.nodes.resume(4);
		}
		// The late SETs of nodes 3 and 4 land; take them away, so that the key lives on
		// exactly the three nodes it was acquired on.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "on-three") == 5);
		for (int i : List.of(3, 4)) {
			this.nodes.node(i).execute("DEL", PREFIX + "on-three");
		}
		this.nodes.pause(2);
		try {
			lock.unlock();
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			// The release is decided once a majority released or found no key (nodes 3
			// and 4 find none): the second of nodes 0 and 1 may answer just after.
			for (int i : List.of(0, 1)) {
				int node = i;
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(this.nodes.node(node).execute("EXISTS", PREFIX + "on-three"))
						.isEqualTo(0L));
			}
		}
		finally {
			this.nodes.resume(2);
		}
		assertThat(this.lost).isEmpty();
	}

	@Test
	void isLockedFailsNamingTheNodesWhenTheFailedOnesCouldMakeAMajority() {
		for (int i : List.of(0, 1)) {
			this.nodes.node(i).execute("SET", PREFIX + "two-and-one", "aa:bb");
		}
		this.nodes.pause(2);
		try {
			assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> this.client.registry.obtain("two-and-one").isLocked())
				.withMessageContaining(this.nodes.name(2));
		}
		finally {
			this.nodes.resume(2);
		}
		// The node lags until its late answer to the call above arrives (LaggingNodes):
		// a call sent before then is decided without it, and fails as above.
		await().atMost(Duration.ofSeconds(5))
			.ignoreExceptionsInstanceOf(LockAccessException.class)
			.until(() -> !this.client.registry.obtain("two-and-one").isLocked());
	}

	@Test
	void aFencingDrawThatFoundNoMajorityIsDrawnAgainByTheNextCall() throws Exception {
		LeasedLock lock = this.client.registry.obtain("drawn-again");
		assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		// Every node holds the key, so the draw needs only answers.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "drawn-again") == 5);
		List<Integer> frozen = List.of(0, 2, 4);
		frozen.forEach(this.nodes::pause);
		try {
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::fencingToken)
				.withMessageContaining("fencing token")
				.withMessageContaining(this.nodes.name(0))
				.withMessageContaining(this.nodes.name(2))
				.withMessageContaining(this.nodes.name(4));
		}
		finally {
			frozen.forEach(this.nodes::resume);
		}
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		long token = lock.fencingToken();
		assertThat(token).isPositive();
		assertThat(lock.fencingToken()).isEqualTo(token);
		lock.unlock();
		LeasedLock next = this.client.registry.obtain("drawn-again");
		assertThat(next.tryLock(Duration.ofSeconds(5))).isTrue();
		assertThat(next.fencingToken()).isGreaterThan(token);
		next.unlock();
		assertThat(this.lost).isEmpty();
	}

}
