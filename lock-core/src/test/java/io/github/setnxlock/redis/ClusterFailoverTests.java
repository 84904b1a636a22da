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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.test.RedisClusterGroup;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock held across the crash of the Redis Cluster primary that serves its key, and of
 * the node that carried the waiter's subscription to release messages (the same node, or
 * another): the replica is promoted with the key, the holder's renewals go on against it,
 * the waiter subscribes again elsewhere, and the holder's release wakes it. The replica
 * is first seen in sync (the replication guard, which would wait for it, refuses cluster
 * connections).
 *
 * @author setnx-lock authors
 */
// Long (about 35 s): handed out early (CoresFirst).
@Order(1)
class ClusterFailoverTests {

	/**
	 * The watchdog's lease: long enough to outlast a failover (a second of node timeout,
	 * the election, the clients' topology refresh), and long against the waiter's bound
	 * so that only the release message can wake it in time.
	 */
	private static final Duration LEASE = Duration.ofSeconds(30);

	private RedisClusterGroup cluster;

	private LettuceConnectionFactory holderFactory;

	private LettuceConnectionFactory waiterFactory;

	private final ExecutorService threads = Executors.newSingleThreadExecutor();

	@BeforeEach
	void start() {
		this.cluster = RedisClusterGroup.withReplicas(3);
		this.holderFactory = RedisConnections.create(this.cluster, Duration.ofSeconds(2));
		this.waiterFactory = RedisConnections.create(this.cluster, Duration.ofSeconds(2));
		// A cold JVM's first cluster connection reads the topology: not within a wait
		// here.
		RedisConnections.template(this.holderFactory).hasKey("warm-up");
		RedisConnections.template(this.waiterFactory).hasKey("warm-up");
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		RedisConnections.destroy(this.holderFactory);
		RedisConnections.destroy(this.waiterFactory);
		this.cluster.close();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLockHeldAcrossAFailoverStaysHeldAndItsReleaseWakesAWaiterThatSubscribedAgain(LockProtocol protocol)
			throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.leaseTime(LEASE)
			.build();
		try (SetnxLockRegistry holder = new SetnxLockRegistry(RedisConnections.template(this.holderFactory), settings);
				SetnxLockRegistry waiter = new SetnxLockRegistry(RedisConnections.template(this.waiterFactory),
						settings)) {
			// The waiter subscribes on its first wait; find the node that carries it.
			LeasedLock first = holder.obtain("first");
			assertThat(first.tryLock(Duration.ofSeconds(10))).isTrue();
			assertThat(waiter.obtain("first").tryLock(Duration.ofSeconds(1))).isFalse();
			first.unlock();
			await().atMost(Duration.ofSeconds(10)).until(() -> waiter.engine().stats().listening());
			await().atMost(Duration.ofSeconds(10)).until(() -> subscriber(settings) != null);
			// The subscription sits on a primary or on a replica; either way its node
			// crashes, and so does the primary of the lock key, which may be the same
			// node.
			RedisServer subscribed = subscriber(settings);
			RedisServer primary = this.cluster.nodes().contains(subscribed) ? subscribed
					: this.cluster.nodes()
						.stream()
						.filter((node) -> !subscribed.equals(this.cluster.replicaOf(node)))
						.findFirst()
						.orElseThrow();
			String key = keyServedBy(primary);

			LeasedLock lock = holder.obtain(key);
			assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
			long token = lock.fencingToken();
			Future<Long> waiting = this.threads
				.submit(() -> Acquisitions.acquiredAt(waiter.obtain(key), Duration.ofSeconds(60), token));
			Handshakes.awaitWaiterOnRedis(waiter, "lock:" + key);
			this.cluster.awaitReplicated(primary);

			if (!subscribed.equals(primary)) {
				this.cluster.stopReplica(subscribed);
			}
			RedisServer promoted = this.cluster.failover(primary);

			assertThat(promoted.execute("EXISTS", "lock:" + key)).as("the lock key on the promoted replica")
				.isEqualTo(1L);
			long renewals = holder.engine().stats().renewals();
			await("a renewal on the promoted replica").atMost(LEASE)
				.until(() -> holder.engine().stats().renewals() > renewals);
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			await("the waiter subscribed again").atMost(Duration.ofSeconds(30))
				.until(() -> subscriber(settings) != null);
			Handshakes.awaitWaiterOnRedis(waiter, "lock:" + key);
			assertThat(waiting.isDone()).isFalse();
			long released = System.nanoTime();
			lock.unlock();
			long acquired = waiting.get(60, TimeUnit.SECONDS);
			assertThat(acquired).as("the waiter got the lock with a higher token").isPositive();
			System.out.printf("Cluster failover, %s protocol: the release woke the waiter in %d ms%n", protocol,
					Duration.ofNanos(acquired - released).toMillis());
			assertThat(Duration.ofNanos(acquired - released)).as("woken by the release, not the lease's end")
				.isLessThan(Duration.ofSeconds(5));
		}
	}

	/**
	 * The node, primary or replica, whose clients include a subscriber to the release
	 * channel, if any: {@code PUBSUB NUMSUB} counts the subscribers of the node asked.
	 */
	private RedisServer subscriber(SetnxLockSettings settings) {
		List<RedisServer> nodes = new ArrayList<>(this.cluster.nodes());
		nodes.addAll(this.cluster.replicas());
		for (RedisServer node : nodes) {
			List<?> reply = (List<?>) node.execute("PUBSUB", "NUMSUB", settings.releaseChannel());
			if ((Long) reply.get(1) > 0) {
				return node;
			}
		}
		return null;
	}

	private String keyServedBy(RedisServer node) {
		for (int i = 0;; i++) {
			if (this.cluster.nodeFor("lock:held-over-" + i).equals(node)) {
				return "held-over-" + i;
			}
		}
	}

}
