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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.redis.operator.RedisLocks;
import io.github.setnxlock.test.RedisClusterGroup;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Locks on a Redis Cluster of three primaries through Spring Data Redis's cluster
 * connection, under both protocols: keys spread over every node, each lock key and its
 * fencing counter in one slot (the acquire scripts write both), hash tags of the
 * application's own honoured, contention and release messages across registries, and the
 * watchdog renewing holds on several nodes at once.
 *
 * @author setnx-lock authors
 */
class ClusterLockTests {

	/**
	 * The lease of the renewal tests: short, so that a hold outlives it several times
	 * within seconds, but long enough for a busy two-core machine.
	 */
	private static final Duration LEASE = Duration.ofSeconds(1);

	private static RedisClusterGroup cluster;

	private static LettuceConnectionFactory factory;

	private static LettuceConnectionFactory otherFactory;

	private final List<SetnxLockRegistry> registries = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterGroup.start(3);
		factory = RedisConnections.create(cluster, Duration.ofSeconds(5));
		otherFactory = RedisConnections.create(cluster, Duration.ofSeconds(5));
		// A cold JVM's first cluster connection reads the topology and loads much; done
		// here, it does not eat into the short leases of the tests.
		RedisConnections.template(factory).hasKey("warm-up");
		RedisConnections.template(otherFactory).hasKey("warm-up");
	}

	@AfterAll
	static void stopCluster() {
		RedisConnections.destroy(factory);
		RedisConnections.destroy(otherFactory);
		cluster.close();
	}

	@BeforeEach
	void flush() {
		cluster.flushAll();
	}

	@AfterEach
	void close() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.registries.forEach(SetnxLockRegistry::close);
	}

	private SetnxLockRegistry registry(LettuceConnectionFactory connections, SetnxLockSettings settings) {
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(connections), settings);
		this.registries.add(registry);
		return registry;
	}

	private static SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).timestampUnit(TimestampUnit.MILLISECONDS).build();
	}

	private static SetnxLockSettings renewed(LockProtocol protocol) {
		return settings(protocol).toBuilder().leaseTime(LEASE).build();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void manyKeysSpreadOverEveryNodeLockWithTheirFenceInTheSameSlot(LockProtocol protocol) throws Exception {
		SetnxLockRegistry registry = registry(factory, settings(protocol));
		Set<Integer> nodes = new HashSet<>();
		List<LeasedLock> held = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			LeasedLock lock = registry.obtain("order-" + i);
			assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
			// Draws the token, which writes the counter (with the acquisition under the
			// timestamp protocol, at the first request under the token protocol).
			assertThat(lock.fencingToken()).isPositive();
			held.add(lock);
			LockKey key = LockKey.of("lock:", "order-" + i);
			assertThat(cluster.slotOf(key.fenceKey())).as(key.fenceKey()).isEqualTo(cluster.slotOf(key.redisKey()));
			RedisServer node = cluster.nodeFor(key.redisKey());
			assertThat(node.execute("EXISTS", key.redisKey(), key.fenceKey())).isEqualTo(2L);
			nodes.add(cluster.nodes().indexOf(node));
		}
		assertThat(nodes).containsExactlyInAnyOrder(0, 1, 2);
		for (LeasedLock lock : held) {
			lock.unlock();
			assertThat(cluster.nodeFor("lock:" + lock.key()).execute("EXISTS", "lock:" + lock.key())).isEqualTo(0L);
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theLocksHeldOnEveryPrimaryAreListedWithTheirHolders(LockProtocol protocol) throws Exception {
		SetnxLockRegistry one = registry(factory, settings(protocol).toBuilder().applicationName("one").build());
		SetnxLockRegistry two = registry(otherFactory, settings(protocol).toBuilder().applicationName("two").build());
		List<LeasedLock> held = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			held.add(one.obtain("order-" + i));
		}
		held.add(two.obtain("{user:7}:cart"));
		for (LeasedLock lock : held) {
			assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
			// Writes the counter, whose key begins with the prefix for a hash-tagged key.
			assertThat(lock.fencingToken()).isPositive();
		}
		try {
			RedisLocks listed = one.operations().heldInRedis(100);
			assertThat(listed.complete()).isTrue();
			assertThat(listed.locks()).extracting(LockState::key)
				.containsExactlyInAnyOrderElementsOf(held.stream().map(LeasedLock::key).toList());
			assertThat(listed.locks()).filteredOn((state) -> state.key().startsWith("order-")).allSatisfy((state) -> {
				assertThat(state.holder()).startsWith("one@");
				assertThat(state.heldHere()).isTrue();
				assertThat(state.ttlMillis()).isPositive();
			});
			assertThat(listed.locks()).filteredOn((state) -> state.key().equals("{user:7}:cart"))
				.singleElement()
				.satisfies((state) -> {
					assertThat(state.holder()).startsWith("two@");
					assertThat(state.heldHere()).isFalse();
				});
			RedisLocks limited = one.operations().heldInRedis(10);
			assertThat(limited.locks()).hasSize(10);
			assertThat(limited.complete()).isFalse();
		}
		finally {
			for (LeasedLock lock : held) {
				lock.unlock();
			}
		}
		assertThat(one.operations().heldInRedis(100).locks()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void keysWithBracesOfTheirOwnStillWork(LockProtocol protocol) throws Exception {
		SetnxLockRegistry registry = registry(factory, settings(protocol));
		for (String name : List.of("{user:7}:cart", "{user:7}:orders", "a}b{c", "}{", "{}x", "x{y}z{w}", "{{}}")) {
			LeasedLock lock = registry.obtain(name);
			assertThat(lock.tryLock(Duration.ofSeconds(10))).as(name).isTrue();
			assertThat(lock.fencingToken()).as(name).isPositive();
			LockKey key = LockKey.of("lock:", name);
			assertThat(cluster.slotOf(key.fenceKey())).as(key.fenceKey()).isEqualTo(cluster.slotOf(key.redisKey()));
			assertThat(cluster.nodeFor(key.redisKey()).execute("EXISTS", key.redisKey(), key.fenceKey())).isEqualTo(2L);
			lock.unlock();
		}
		// An application's hash tag is kept: its locks share a slot, so one of its
		// scripts could touch both.
		assertThat(cluster.slotOf("lock:{user:7}:cart")).isEqualTo(cluster.slotOf("lock:{user:7}:orders"));
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void twoRegistriesContendAndAReleaseWakesTheWaiter(LockProtocol protocol) throws Exception {
		SetnxLockRegistry one = registry(factory, settings(protocol));
		SetnxLockRegistry two = registry(otherFactory, settings(protocol));
		LeasedLock held = one.obtain("contended");
		// A lease far longer than the test: only the release can let the waiter in.
		assertThat(held.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(60))).isTrue();
		assertThat(two.obtain("contended").tryLock()).isFalse();
		Future<Long> waiter = this.threads.submit(() -> {
			LeasedLock lock = two.obtain("contended");
			if (!lock.tryLock(Duration.ofSeconds(30))) {
				return -1L;
			}
			try {
				return lock.fencingToken();
			}
			finally {
				lock.unlock();
			}
		});
		Thread.sleep(300);
		assertThat(waiter.isDone()).as("waits while the lock is held").isFalse();
		long token = held.fencingToken();
		held.unlock();
		// Under the token protocol the waiter sleeps until the release message, which
		// the cluster delivers from the lock's node to the node the waiter listens on.
		assertThat(waiter.get(20, TimeUnit.SECONDS)).isGreaterThan(token);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theWatchdogRenewsHoldsOnEveryNode(LockProtocol protocol) throws Exception {
		SetnxLockRegistry registry = registry(factory, renewed(protocol));
		SetnxLockRegistry other = registry(otherFactory, renewed(protocol));
		List<LeasedLock> held = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			LeasedLock lock = registry.obtain("renewed-" + i);
			assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
			// Draws the token, which writes the counter (with the acquisition under the
			// timestamp protocol, at the first request under the token protocol).
			assertThat(lock.fencingToken()).isPositive();
			held.add(lock);
		}
		assertHeldThroughRenewals(registry, other, held);
	}

	/**
	 * Three leases later every hold is still held, no one else can take it, and each was
	 * renewed (every third of the lease: some nine rounds; at least three counted).
	 */
	private static void assertHeldThroughRenewals(SetnxLockRegistry registry, SetnxLockRegistry other,
			List<LeasedLock> held) throws InterruptedException {
		Thread.sleep(LEASE.toMillis() * 3);
		for (LeasedLock lock : held) {
			assertThat(lock.isHeldByCurrentThread()).as(lock.key()).isTrue();
			assertThat(other.obtain(lock.key()).tryLock()).as(lock.key()).isFalse();
			lock.unlock();
			assertThat(other.obtain(lock.key()).isLocked()).isFalse();
		}
		assertThat(registry.engine().stats().renewals()).isGreaterThanOrEqualTo(held.size() * 3L);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theWatchdogRenewsOneByOneWhereTheClusterConnectionCannotPipeline(LockProtocol protocol) throws Exception {
		// Jedis's cluster connection refuses to open a pipeline, so renewals go one
		// script at a time on that connection.
		RedisClusterConfiguration configuration = new RedisClusterConfiguration();
		cluster.nodes().forEach((node) -> configuration.clusterNode(node.host(), node.port()));
		JedisConnectionFactory jedis = new JedisConnectionFactory(configuration,
				JedisClientConfiguration.builder().readTimeout(Duration.ofSeconds(5)).build());
		jedis.afterPropertiesSet();
		jedis.start();
		try {
			SetnxLockRegistry registry = new SetnxLockRegistry(new StringRedisTemplate(jedis), renewed(protocol));
			this.registries.add(registry);
			SetnxLockRegistry other = registry(factory, renewed(protocol));
			List<LeasedLock> held = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				LeasedLock lock = registry.obtain("jedis-" + i);
				assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
				held.add(lock);
			}
			assertHeldThroughRenewals(registry, other, held);
		}
		finally {
			jedis.destroy();
		}
	}

	@Test
	void theReplicationGuardRefusesAClusterConnection() {
		SetnxLockRegistry registry = registry(factory,
				SetnxLockSettings.builder().replicationGuard(1, Duration.ofMillis(100)).build());
		LeasedLock lock = registry.obtain("guarded");
		assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(10)))
			.withMessageContaining("cannot protect lock 'guarded' on a Redis Cluster connection");
		assertThat(cluster.nodeFor("lock:guarded").execute("EXISTS", "lock:guarded")).isEqualTo(0L);
	}

}
