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
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Redlock over three real Redis servers that are killed, restarted without their data or
 * frozen: the delayed-restart rule keeps a restarted node out of acquisitions until the
 * lease has passed, a minority killed and restarted changes nothing for callers, and a
 * silent majority fails a call within its wait naming the silent nodes.
 * <p>
 * Nodes started for the class have just started too, so the first acquisitions wait for
 * the restart delay (the lease). Node timeouts and leases are long, since a machine under
 * load may stall a test's JVM for hundreds of milliseconds.
 *
 * @author setnx-lock authors
 */
@TestInstance(Lifecycle.PER_CLASS)
@ResourceLock(value = SharedResources.CORES, mode = ResourceAccessMode.READ)
class RedlockRestartTests {

	private static final String PREFIX = SetnxLockSettings.defaults().keyPrefix();

	/** A lease short enough that the restart delay (the lease) passes within a test. */
	private static final SetnxLockSettings SETTINGS = SetnxLockSettings.builder()
		.leaseTime(Duration.ofSeconds(4))
		.nodeTimeout(Duration.ofMillis(1000))
		.build();

	private static final Duration LONG_ENOUGH = Duration.ofSeconds(20);

	private RedisNodes nodes;

	@BeforeAll
	void startNodes() {
		this.nodes = RedisNodes.start(3);
	}

	@AfterAll
	void stopNodes() {
		this.nodes.close();
	}

	@BeforeEach
	void flush() {
		this.nodes.flushAll();
	}

	@AfterEach
	void resumeAll() {
		this.nodes.resumeAll();
	}

	@Test
	void aNodeRestartedEmptyCountsForNoAcquisitionUntilTheLeaseHasPassed() throws Exception {
		String key = "restarted";
		Duration delay = Duration.ofSeconds(10);
		SetnxLockSettings withoutRule = SETTINGS.toBuilder().restartDelay(Duration.ZERO).build();
		SetnxLockSettings settings = SETTINGS.toBuilder().restartDelay(delay).build();
		try (RedlockClient holder = new RedlockClient(this.nodes, withoutRule);
				RedlockClient waiter = new RedlockClient(this.nodes, settings)) {
			waiter.registry.obtain("warm-up").isLocked();
			// Nodes 0 and 2 count for every registry: only node 1's restart is at stake.
			for (int i : List.of(0, 2)) {
				RedisServer node = this.nodes.node(i);
				await().atMost(LONG_ENOUGH).until(() -> uptimeSeconds(node) > delay.toSeconds());
			}
			// Held elsewhere on node 2: each holder's majority is nodes 0 and 1. Leases
			// of
			// their own, never renewed, so that a holder counts on its lock until its
			// lease ends whatever the nodes say: the restart delay for the lock the rule
			// protects, a minute for the one that shows what happens without it.
			String unprotected = key + "-without-rule";
			// For two seconds only: a decision needs nodes 0 and 1 alone, and node 2's
			// answer, still on its way, would take a key deleted under it (the script
			// that follows a refused SET takes a key that became free), so the keys end
			// on their own, long after those answers.
			this.nodes.node(2).execute("SET", PREFIX + key, "another-client", "PX", "2000");
			this.nodes.node(2).execute("SET", PREFIX + unprotected, "another-client", "PX", "2000");
			LeasedLock held = holder.registry.obtain(key);
			assertThat(held.tryLock(LONG_ENOUGH, delay)).isTrue();
			LeasedLock heldLonger = holder.registry.obtain(unprotected);
			assertThat(heldLonger.tryLock(LONG_ENOUGH, Duration.ofMinutes(1))).isTrue();
			RedisServer node2 = this.nodes.node(2);
			await().atMost(LONG_ENOUGH)
				.until(() -> (Long) node2.execute("EXISTS", PREFIX + key, PREFIX + unprotected) == 0L);
			// Node 1 forgets the holders' keys: only node 0 still has them.
			this.nodes.restart(1);
			// What the rule prevents: the restarted node and node 2 make a majority for a
			// second holder while the first still counts on its lock.
			try (RedlockClient careless = new RedlockClient(this.nodes, withoutRule)) {
				LeasedLock second = careless.registry.obtain(unprotected);
				assertThat(second.tryLock(LONG_ENOUGH)).isTrue();
				assertThat(heldLonger.isHeldByCurrentThread()).as("two holders at once").isTrue();
				second.unlock();
			}
			// With the rule, the restarted node does not count: neither a registry that
			// knew it before the restart nor one that meets it now gets the lock while
			// its holder counts on it. (Held afterwards means held at the acquisition.)
			LeasedLock waiting = waiter.registry.obtain(key);
			boolean taken = waiting.tryLock(Duration.ofMillis(300));
			assertThat(taken && held.isHeldByCurrentThread()).as("a second holder while the first holds").isFalse();
			if (taken) {
				waiting.unlock();
			}
			try (RedlockClient newcomer = new RedlockClient(this.nodes, settings)) {
				LeasedLock meeting = newcomer.registry.obtain(key);
				boolean met = meeting.tryLock(Duration.ofMillis(300));
				assertThat(met && held.isHeldByCurrentThread()).as("a second holder while the first holds").isFalse();
				if (met) {
					meeting.unlock();
				}
			}
			// Once the node has been up for the restart delay, the holder's lease (no
			// longer) has ended, and nodes 1 and 2 make a majority.
			LeasedLock later = waiter.registry.obtain(key);
			assertThat(later.tryLock(LONG_ENOUGH)).isTrue();
			assertThat(held.isHeldByCurrentThread()).isFalse();
			later.unlock();
		}
	}

	private static long uptimeSeconds(RedisServer node) {
		return Long.parseLong(node.info("server").get("uptime_in_seconds"));
	}

	@Test
	void aMinorityKilledAndRestartedEmptyChangesNothingForCallers() throws Exception {
		try (RedlockClient first = new RedlockClient(this.nodes, SETTINGS);
				RedlockClient second = new RedlockClient(this.nodes, SETTINGS)) {
			LeasedLock lock = first.registry.obtain("killed");
			assertThat(lock.tryLock(LONG_ENOUGH)).isTrue();
			long before = lock.fencingToken();
			lock.unlock();
			// Killed: connections to it are refused.
			this.nodes.stop(2);
			try {
				for (int round = 0; round < 3; round++) {
					RedlockClient client = (round % 2 == 0) ? first : second;
					LeasedLock taken = client.registry.obtain("killed");
					assertThat(taken.tryLock(LONG_ENOUGH)).isTrue();
					assertThat(taken.fencingToken()).isGreaterThan(before);
					before = taken.fencingToken();
					assertThat((client == first ? second : first).registry.obtain("killed")
						.tryLock(Duration.ofMillis(200))).isFalse();
					taken.unlock();
				}
			}
			finally {
				this.nodes.restart(2);
			}
			// Back, empty, and sitting out the lease: the two others carry on alone.
			for (int round = 0; round < 3; round++) {
				LeasedLock taken = first.registry.obtain("killed");
				assertThat(taken.tryLock(LONG_ENOUGH)).isTrue();
				assertThat(taken.fencingToken()).isGreaterThan(before);
				before = taken.fencingToken();
				taken.unlock();
			}
		}
	}

	@Test
	void twoSilentNodesOfThreeFailTheAcquisitionWithinTheWaitNamingBoth() throws Exception {
		// A client command timeout, and a node timeout, beyond the wait: the wait ends
		// while the decision still waits for the silent nodes, and names them.
		SetnxLockSettings settings = SETTINGS.toBuilder()
			.leaseTime(Duration.ofSeconds(30))
			.nodeTimeout(Duration.ofSeconds(5))
			.restartDelay(Duration.ZERO)
			.build();
		try (RedlockClient client = new RedlockClient(this.nodes, settings, Duration.ofSeconds(60), List.of())) {
			LeasedLock warmUp = client.registry.obtain("warm-up");
			assertThat(warmUp.tryLock(LONG_ENOUGH)).isTrue();
			warmUp.unlock();
			this.nodes.pause(1);
			this.nodes.pause(2);
			LeasedLock lock = client.registry.obtain("silent");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)))
				.withMessageContaining("'silent'")
				.withMessageContaining("no answer yet")
				.withMessageContaining(this.nodes.name(1))
				.withMessageContaining(this.nodes.name(2))
				.withMessageNotContaining(this.nodes.name(0));
			assertThat(lock.isHeldByCurrentThread()).isFalse();
		}
	}

}
