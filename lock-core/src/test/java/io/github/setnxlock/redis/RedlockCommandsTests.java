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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redlock over five real Redis servers at the edges of its quorum: a key on a majority
 * while held, a frozen minority that changes nothing, a lost majority that fails naming
 * the nodes, late answers that release what they took, fencing tokens that keep
 * increasing while the answering nodes change, and a watchdog that keeps a hold on a
 * majority.
 *
 * @author setnx-lock authors
 */
@TestInstance(Lifecycle.PER_CLASS)
@ResourceLock(value = SharedResources.CORES, mode = ResourceAccessMode.READ)
class RedlockCommandsTests {

	private static final String PREFIX = SetnxLockSettings.defaults().keyPrefix();

	/**
	 * Restarts are the subject of {@link RedlockRestartTests}: here nodes started (or
	 * restarted) for the class count at once.
	 */
	private static final SetnxLockSettings SETTINGS = SetnxLockSettings.builder()
		.nodeTimeout(Duration.ofMillis(500))
		.restartDelay(Duration.ZERO)
		.build();

	private RedisNodes nodes;

	private RedlockClient first;

	private RedlockClient second;

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
		this.first = new RedlockClient(this.nodes, SETTINGS);
		this.second = new RedlockClient(this.nodes, SETTINGS);
		// Connect every node before a test freezes one: a first connection to a frozen
		// server would wait for the command timeout.
		this.first.registry.obtain("warm-up").isLocked();
		this.second.registry.obtain("warm-up").isLocked();
	}

	@AfterEach
	void disconnect() {
		this.first.close();
		this.second.close();
	}

	@Test
	void whileHeldTheKeyLivesOnAMajorityWithOneTokenAndTheOtherRegistryWaitsInVain() throws Exception {
		LeasedLock lock = this.first.registry.obtain("majority");
		assertThat(lock.tryLock()).isTrue();
		try {
			assertThat(this.nodes.holdersOf(PREFIX + "majority")).isGreaterThanOrEqualTo(3);
			// The last nodes' answers need not have come before the decision.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "majority") == 5);
			assertThat(this.nodes.nodes().stream().map((node) -> node.execute("GET", PREFIX + "majority")).distinct())
				.hasSize(1);
			assertThat(this.second.registry.obtain("majority").tryLock(Duration.ofMillis(500))).isFalse();
			assertThat(this.second.registry.obtain("majority").isLocked()).isTrue();
		}
		finally {
			lock.unlock();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "majority") == 0);
	}

	@ParameterizedTest
	@CsvSource({ "0,1,false", "0,2,false", "0,3,false", "0,4,false", "1,2,false", "1,3,false", "1,4,false", "2,3,false",
			"2,4,false", "3,4,false", "0,1,true", "1,3,true", "3,4,true" })
	void twoFrozenOrKilledNodesChangeNothingForLockUnlockAndWaiting(int frozen, int alsoFrozen, boolean killed)
			throws Exception {
		List<Integer> faulty = List.of(frozen, alsoFrozen);
		// Killed: their connections are refused, rather than left unanswered.
		faulty.forEach(killed ? this.nodes::stop : this.nodes::pause);
		long token;
		try {
			LeasedLock lock = this.first.registry.obtain("two-frozen");
			LeasedLock other = this.second.registry.obtain("two-frozen");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			assertThat(this.nodes.holdersOf(PREFIX + "two-frozen")).isEqualTo(3);
			assertThat(other.tryLock(Duration.ofMillis(500))).isFalse();
			lock.unlock();
			assertThat(other.tryLock(Duration.ofSeconds(5))).isTrue();
			token = other.fencingToken();
			assertThat(token).isPositive();
			other.unlock();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "two-frozen") == 0);
		}
		finally {
			faulty.forEach(killed ? this.nodes::restart : this.nodes::resume);
		}
		// Back (empty, if killed): nothing changes either.
		LeasedLock again = this.first.registry.obtain("two-frozen");
		assertThat(again.tryLock(Duration.ofSeconds(5))).isTrue();
		assertThat(again.fencingToken()).isGreaterThan(token);
		again.unlock();
	}

	@Test
	void threeStoppedNodesFailTheAcquisitionWithinTheWaitNamingThem() {
		List<Integer> stopped = List.of(0, 2, 4);
		stopped.forEach(this.nodes::stop);
		try {
			LeasedLock lock = this.first.registry.obtain("three-stopped");
			// Naming the nodes, the failure is the quorum's decision, not the end of the
			// caller's wait (which could name none).
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(2)))
				.withMessageContaining("'three-stopped'")
				.withMessageContaining(this.nodes.name(0))
				.withMessageContaining(this.nodes.name(2))
				.withMessageContaining(this.nodes.name(4))
				.withMessageNotContaining(this.nodes.name(1))
				.withMessageNotContaining(this.nodes.name(3));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "three-stopped") == 0);
		}
		finally {
			stopped.forEach(this.nodes::restart);
		}
	}

	@Test
	void aFrozenMajorityFailsAtTheNodeTimeoutAndTheLateAnswersReleaseWhatTheyTook() {
		List<Integer> frozen = List.of(1, 2, 3);
		frozen.forEach(this.nodes::pause);
		try {
			LeasedLock lock = this.first.registry.obtain("late");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(2)))
				.withMessageContaining(this.nodes.name(1))
				.withMessageContaining("did not answer within 500 ms");
		}
		finally {
			frozen.forEach(this.nodes::resume);
		}
		// The frozen nodes run the SET they had been sent, answer it late, and are
		// told to release it.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.nodes.holdersOf(PREFIX + "late") == 0);
		for (RedisServer node : this.nodes.nodes()) {
			assertThat(node.execute("EXISTS", PREFIX + "late")).isEqualTo(0L);
		}
	}

	@Test
	void fencingTokensKeepIncreasingOverAlternatingHoldersWhileTheAnsweringNodesChange() throws Exception {
		long previous = 0;
		for (int round = 0; round < 10; round++) {
			int frozen = round % 5;
			int alsoFrozen = (round + 2) % 5;
			this.nodes.pause(frozen);
			this.nodes.pause(alsoFrozen);
			try {
				RedlockClient holder = (round % 2 == 0) ? this.first : this.second;
				LeasedLock lock = holder.registry.obtain("fenced");
				assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
				long token = lock.fencingToken();
				assertThat(token).as("round %d", round).isGreaterThan(previous);
				previous = token;
				lock.unlock();
			}
			finally {
				this.nodes.resume(frozen);
				this.nodes.resume(alsoFrozen);
			}
		}
	}

	@Test
	void aFencingDrawReturnsMoreThanAnyCounterAMajorityHoldsAndNamesACounterThatIsNotOne() throws Exception {
		long high = 8_000_000_000_000_000L;
		for (int i : List.of(0, 2, 4)) {
			this.nodes.node(i).execute("SET", "{" + PREFIX + "floor}:fence", Long.toString(high));
		}
		LeasedLock lock = this.first.registry.obtain("floor");
		assertThat(lock.tryLock()).isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(high);
		lock.unlock();
		for (RedisServer node : this.nodes.nodes()) {
			node.execute("SET", "{" + PREFIX + "garbled}:fence", "not-a-counter");
		}
		LeasedLock garbled = this.first.registry.obtain("garbled");
		assertThat(garbled.tryLock()).isTrue();
		assertThatExceptionOfType(LockAccessException.class).isThrownBy(garbled::fencingToken)
			.withMessageContaining("not-a-counter");
		assertThat(garbled.isHeldByCurrentThread()).isTrue();
		garbled.unlock();
	}

	@Test
	void theWatchdogKeepsAHoldPastItsLeaseOnAMajorityWhileANodeIsFrozen() throws Exception {
		SetnxLockSettings shortLease = SETTINGS.toBuilder()
			.leaseTime(Duration.ofSeconds(1))
			.nodeTimeout(Duration.ofMillis(300))
			.build();
		try (RedlockClient client = new RedlockClient(this.nodes, shortLease)) {
			LeasedLock lock = client.registry.obtain("watched");
			assertThat(lock.tryLock()).isTrue();
			this.nodes.pause(2);
			try {
				long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
				while (System.nanoTime() - end < 0) {
					assertThat(lock.isHeldByCurrentThread()).isTrue();
					Thread.sleep(200);
				}
				assertThat(this.nodes.holdersOf(PREFIX + "watched")).isGreaterThanOrEqualTo(3);
				// The renewals found the key on the nodes that answered, not on the
				// frozen one.
				long renewedOn = client.registry.engine().holds().get(0).lease().nodeMask();
				assertThat(Long.bitCount(renewedOn)).isGreaterThanOrEqualTo(3);
				assertThat(renewedOn & (1L << 2)).isZero();
				long holdersWithTtl = this.nodes.nodes()
					.stream()
					.filter((node) -> node != this.nodes.node(2))
					.filter((node) -> (Long) node.execute("PTTL", PREFIX + "watched") > 0)
					.count();
				assertThat(holdersWithTtl).isGreaterThanOrEqualTo(3);
				lock.unlock();
			}
			finally {
				this.nodes.resume(2);
			}
		}
	}

}
