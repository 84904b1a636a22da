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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisSentinelGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locks on a registry that finds its Redis through a Sentinel, as
 * {@code spring.data.redis.sentinel.*} configures it: they work, and after the primary
 * dies and the Sentinel promotes its replica they work again on the new primary, with
 * fencing tokens still increasing; a lock the replication guard saw replicated stays held
 * across the failover, and its release reaches a waiter through the subscription the
 * waiter made again on the new primary.
 *
 * @author setnx-lock authors
 */
class SentinelLockTests {

	private RedisSentinelGroup group;

	private LettuceConnectionFactory factory;

	private LettuceConnectionFactory otherFactory;

	@BeforeEach
	void start() {
		this.group = RedisSentinelGroup.start();
		this.factory = RedisConnections.create(this.group, Duration.ofSeconds(2));
		this.otherFactory = RedisConnections.create(this.group, Duration.ofSeconds(2));
	}

	@AfterEach
	void stop() {
		RedisConnections.destroy(this.factory);
		RedisConnections.destroy(this.otherFactory);
		this.group.close();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void locksWorkThroughTheSentinelAndAgainAfterAFailover(LockProtocol protocol) throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder().protocol(protocol).build();
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(this.factory), settings);
				SetnxLockRegistry other = new SetnxLockRegistry(RedisConnections.template(this.otherFactory),
						settings)) {
			LeasedLock lock = registry.obtain("sentinel");
			// A long wait: the first connection of a cold JVM asks the Sentinel first.
			assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
			long before = lock.fencingToken();
			assertThat(other.obtain("sentinel").tryLock()).isFalse();
			assertThat(this.group.primary().execute("EXISTS", "lock:sentinel")).isEqualTo(1L);
			lock.unlock();
			assertThat(this.group.primary().execute("EXISTS", "lock:sentinel")).isEqualTo(0L);
			this.group.awaitReplicated();

			this.group.failover();
			long failedOver = System.nanoTime();

			// The clients find out when their connections to the dead primary fail, and
			// reconnect through the Sentinel: until then an attempt is an error, not
			// "held".
			await().pollInSameThread()
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.ignoreExceptionsInstanceOf(LockAccessException.class)
				.until(() -> lock.tryLock(Duration.ofSeconds(1)));
			System.out.printf("Sentinel, %s protocol: first acquisition on the new primary %d ms after the failover%n",
					protocol, Duration.ofNanos(System.nanoTime() - failedOver).toMillis());
			long after = lock.fencingToken();
			assertThat(after).isGreaterThan(before);
			assertThat(this.group.primary().execute("EXISTS", "lock:sentinel")).isEqualTo(1L);
			await().pollInSameThread()
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.ignoreExceptionsInstanceOf(LockAccessException.class)
				.until(() -> !other.obtain("sentinel").tryLock());
			lock.unlock();
			LeasedLock otherLock = other.obtain("sentinel");
			assertThat(otherLock.tryLock(Duration.ofSeconds(2))).isTrue();
			assertThat(otherLock.fencingToken()).isGreaterThan(after);
			otherLock.unlock();
			assertThat(this.group.primary().execute("EXISTS", "lock:sentinel")).isEqualTo(0L);
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLockHeldAcrossAFailoverStaysHeldAndItsReleaseWakesAWaiterOnTheNewPrimary(LockProtocol protocol)
			throws Exception {
		// The holder's guard makes its acquisition wait for the replica, so the promoted
		// replica has the key. The waiter has none: the new primary has no replica left
		// to wait for. A lease the test never waits out, so only the release message can
		// wake the waiter in time.
		Duration lease = Duration.ofSeconds(60);
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.build();
		SetnxLockSettings guarded = settings.toBuilder().replicationGuard(1, Duration.ofSeconds(5)).build();
		ExecutorService threads = Executors.newSingleThreadExecutor();
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(this.factory), guarded);
				SetnxLockRegistry other = new SetnxLockRegistry(RedisConnections.template(this.otherFactory),
						settings)) {
			LeasedLock lock = registry.obtain("held-over");
			assertThat(lock.tryLock(Duration.ofSeconds(10), lease)).isTrue();
			long token = lock.fencingToken();
			Future<Long> waiter = threads
				.submit(() -> Acquisitions.acquiredAt(other.obtain("held-over"), Duration.ofSeconds(50), token));
			Handshakes.awaitWaiterOnRedis(other, "lock:held-over");

			RedisServer primary = this.group.failover();

			assertThat(primary.execute("EXISTS", "lock:held-over")).as("the lock key on the new primary").isEqualTo(1L);
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			// The waiter lost its subscription with the old primary and subscribed again
			// on the new one before the release, or it would sleep out the lease.
			await("the waiter subscribed on the new primary").atMost(Duration.ofSeconds(30))
				.until(() -> ((Long) ((List<?>) primary.execute("PUBSUB", "NUMSUB", settings.releaseChannel()))
					.get(1)) > 0);
			Handshakes.awaitWaiterOnRedis(other, "lock:held-over");
			assertThat(waiter.isDone()).isFalse();
			long released = System.nanoTime();
			lock.unlock();
			long acquired = waiter.get(60, TimeUnit.SECONDS);
			assertThat(acquired).as("the waiter got the lock with a higher token").isPositive();
			System.out.printf("Sentinel, %s protocol: a release on the new primary woke the waiter in %d ms%n",
					protocol, Duration.ofNanos(acquired - released).toMillis());
			assertThat(Duration.ofNanos(acquired - released)).as("woken by the release, not the lease's end")
				.isLessThan(Duration.ofSeconds(5));
		}
		finally {
			threads.shutdownNow();
		}
	}

}
