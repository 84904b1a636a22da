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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.test.RedisReplicaSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The replication guard against a real primary and replica. A failover to a replica that
 * missed the lock key (its replication link cut, then promoted with
 * {@code REPLICAOF NO ONE}, as a Sentinel would) gives the lock to a second holder
 * without the guard; with it, the first acquisition fails instead, and releases its key.
 *
 * @author setnx-lock authors
 */
class ReplicationGuardTests {

	private static final Duration LEASE = Duration.ofSeconds(10);

	/**
	 * The guard's timeout where replication is broken, which the acquisition waits out;
	 * also enough for a frozen replica, once resumed, to catch up on a busy machine.
	 */
	private static final Duration GUARD_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * The guard's timeout where the replica is healthy: generous, for a busy machine;
	 * WAIT returns as soon as the replica acknowledges.
	 */
	private static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(5);

	private RedisReplicaSet servers;

	@BeforeEach
	void start() {
		this.servers = RedisReplicaSet.start(1);
	}

	@AfterEach
	void stop() {
		this.servers.close();
	}

	private static SetnxLockSettings settings(LockProtocol protocol, int replicas) {
		return settings(protocol, replicas, GUARD_TIMEOUT);
	}

	private static SetnxLockSettings settings(LockProtocol protocol, int replicas, Duration timeout) {
		return SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.replicationGuard(replicas, timeout)
			.build();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void withoutTheGuardAFailoverHandsTheLockToASecondHolder(LockProtocol protocol) throws Exception {
		try (TestClient first = new TestClient(this.servers.primary(), settings(protocol, 0))) {
			this.servers.cutReplication(0);
			LeasedLock firstLock = first.registry.obtain("order-1");
			assertThat(firstLock.tryLock(Duration.ZERO, LEASE)).isTrue();
			// The first holder takes its token before it works, as a fenced holder does.
			long firstToken = firstLock.fencingToken();
			this.servers.promote(0);
			try (TestClient second = new TestClient(this.servers.replica(0), settings(protocol, 0))) {
				LeasedLock secondLock = second.registry.obtain("order-1");
				assertThat(secondLock.tryLock(Duration.ZERO, LEASE)).isTrue();
				// Two holders at once, each within its lease: only fencing tokens tell
				// them apart, the later holder's being the larger.
				assertThat(firstLock.isHeldByCurrentThread()).isTrue();
				assertThat(secondLock.isHeldByCurrentThread()).isTrue();
				assertThat(secondLock.fencingToken()).isGreaterThan(firstToken);
				assertThat(firstLock.fencingToken()).isEqualTo(firstToken);
				secondLock.unlock();
			}
			firstLock.unlock();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void withTheGuardTheAcquisitionFailsInsteadAndItsKeyIsReleased(LockProtocol protocol) throws Exception {
		try (TestClient first = new TestClient(this.servers.primary(), settings(protocol, 1))) {
			this.servers.cutReplication(0);
			LeasedLock firstLock = first.registry.obtain("order-1");
			assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> firstLock.tryLock(Duration.ZERO, LEASE))
				.withMessageContaining("Lock 'order-1' (Redis key 'lock:order-1')")
				.withMessageContaining("only 0 of the 1 replicas required acknowledged it within 1000 ms")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order-1"));
			assertThat(firstLock.isHeldByCurrentThread()).isFalse();
			assertThat(this.servers.primary().execute("EXISTS", "lock:order-1")).isEqualTo(0L);
			this.servers.promote(0);
			try (TestClient second = new TestClient(this.servers.replica(0), settings(protocol, 0))) {
				LeasedLock secondLock = second.registry.obtain("order-1");
				assertThat(secondLock.tryLock(Duration.ZERO, LEASE)).isTrue();
				secondLock.unlock();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void withAHealthyReplicaTheGuardedAcquisitionIsOnTheReplicaWhenItReturns(LockProtocol protocol) throws Exception {
		try (TestClient client = new TestClient(this.servers.primary(), settings(protocol, 1, HEALTHY_TIMEOUT),
				HEALTHY_TIMEOUT.multipliedBy(2))) {
			LeasedLock lock = client.registry.obtain("order-1");
			for (int i = 0; i < 3; i++) {
				assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
				// Under the token protocol the draw is a write of its own, guarded too.
				assertThat(lock.fencingToken()).isPositive();
				// No waiting for replication here: WAIT already did.
				assertThat(this.servers.replica(0).execute("EXISTS", "lock:order-1")).isEqualTo(1L);
				assertThat(this.servers.replica(0).execute("EXISTS", LockKey.fenceKeyFor("lock:order-1")))
					.isEqualTo(1L);
				lock.unlock();
			}
		}
	}

	@Test
	void theGuardWaitsForTheAcquisitionsOwnWrite() throws Exception {
		// The replica has acknowledged everything so far and is still connected, only
		// frozen. WAIT sent on a connection that had not written the lock would count it
		// at once; on the acquiring connection it must wait for the lock key and time
		// out.
		this.servers.awaitReplicated();
		try (TestClient client = new TestClient(this.servers.primary(), settings(LockProtocol.TOKEN, 1))) {
			LeasedLock lock = client.registry.obtain("frozen");
			this.servers.replica(0).pause();
			try {
				assertThatExceptionOfType(LockAccessException.class)
					.isThrownBy(() -> lock.tryLock(Duration.ZERO, LEASE))
					.withMessageContaining("only 0 of the 1 replicas");
				assertThat(this.servers.primary().execute("EXISTS", "lock:frozen")).isEqualTo(0L);
			}
			finally {
				this.servers.replica(0).resume();
			}
			this.servers.awaitReplicated();
			assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
			lock.unlock();
		}
	}

	@Test
	void theGuardsWaitHoldsUpNoOtherLockCommand() throws Exception {
		this.servers.awaitReplicated();
		SetnxLockSettings settings = settings(LockProtocol.TOKEN, 1, Duration.ofSeconds(30));
		try (TestClient client = new TestClient(this.servers.primary(), settings, Duration.ofMinutes(1))) {
			LeasedLock held = client.registry.obtain("held");
			assertThat(held.tryLock(Duration.ZERO, LEASE)).isTrue();
			LeasedLock waiting = client.registry.obtain("waiting");
			ExecutorService acquiring = Executors.newSingleThreadExecutor();
			this.servers.replica(0).pause();
			try {
				Future<Boolean> guarded = acquiring.submit(() -> waiting.tryLock(Duration.ZERO, LEASE));
				// Handshake: the guard's WAIT is blocked at the primary, for its 30 s.
				await().atMost(Duration.ofSeconds(10))
					.until(() -> String.valueOf(this.servers.primary().execute("CLIENT", "LIST")).contains("cmd=wait"));
				// The registry's other commands go on meanwhile: a read, and a release.
				assertThat(held.isLocked()).isTrue();
				held.unlock();
				assertThat(this.servers.primary().execute("EXISTS", "lock:held")).isEqualTo(0L);
				assertThat(guarded).isNotDone();
				assertThat(String.valueOf(this.servers.primary().execute("CLIENT", "LIST"))).contains("cmd=wait");
			}
			finally {
				this.servers.replica(0).resume();
				acquiring.shutdown();
				assertThat(acquiring.awaitTermination(40, TimeUnit.SECONDS)).isTrue();
			}
		}
	}

	@Test
	void theGuardWaitsOnTheAcquiringConnectionWithJedisToo() throws Exception {
		// Jedis borrows a pooled connection per command; the guard keeps one for both.
		JedisConnectionFactory jedis = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(this.servers.primary().host(), this.servers.primary().port()));
		jedis.afterPropertiesSet();
		jedis.start();
		this.servers.awaitReplicated();
		try (SetnxLockRegistry registry = new SetnxLockRegistry(new StringRedisTemplate(jedis),
				settings(LockProtocol.TOKEN, 1))) {
			LeasedLock lock = registry.obtain("jedis");
			this.servers.replica(0).pause();
			try {
				assertThatExceptionOfType(LockAccessException.class)
					.isThrownBy(() -> lock.tryLock(Duration.ZERO, LEASE))
					.withMessageContaining("only 0 of the 1 replicas");
			}
			finally {
				this.servers.replica(0).resume();
			}
			this.servers.awaitReplicated();
			assertThat(lock.tryLock(Duration.ZERO, LEASE)).isTrue();
			assertThat(this.servers.replica(0).execute("EXISTS", "lock:jedis")).isEqualTo(1L);
			lock.unlock();
		}
		finally {
			jedis.destroy();
		}
	}

	@Test
	void aGuardedTakeoverThatIsNotReplicatedIsReleased() throws Exception {
		try (TestClient client = new TestClient(this.servers.primary(), settings(LockProtocol.TIMESTAMP, 1))) {
			// An expired holder's timestamp, as a client of the documented pattern leaves
			// it.
			this.servers.primary().execute("SET", "lock:taken-over", "1000");
			this.servers.cutReplication(0);
			LeasedLock lock = client.registry.obtain("taken-over");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO, LEASE))
				.withMessageContaining("only 0 of the 1 replicas");
			assertThat(this.servers.primary().execute("EXISTS", "lock:taken-over")).isEqualTo(0L);
		}
	}

	@Test
	void badGuardSettingsAreRejectedWithTheirNames() {
		SetnxLockSettings.Builder builder = SetnxLockSettings.builder();
		assertThatIllegalArgumentException().isThrownBy(() -> builder.replicationGuard(-1, Duration.ofSeconds(1)))
			.withMessage("replicationGuard replicas must not be negative, but was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.replicationGuard(1, Duration.ofMillis(-5)))
			.withMessage("replicationGuard timeout must be at least 1ms, but was PT-0.005S");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.replicationGuard(1, Duration.ZERO))
			.withMessageStartingWith("replicationGuard timeout must be at least 1ms");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.replicationGuard(1, null))
			.withMessage("replicationGuard timeout must not be null");
		SetnxLockSettings defaults = SetnxLockSettings.defaults();
		assertThat(defaults.replicationGuardReplicas()).isZero();
		assertThat(defaults.replicationGuardTimeout()).isEqualTo(Duration.ofSeconds(1));
		SetnxLockSettings guarded = builder.replicationGuard(2, Duration.ofMillis(50)).build().toBuilder().build();
		assertThat(guarded.replicationGuardReplicas()).isEqualTo(2);
		assertThat(guarded.replicationGuardTimeout()).isEqualTo(Duration.ofMillis(50));
	}

}
