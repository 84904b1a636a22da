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
package io.github.setnxlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One client's traffic to Redis is stalled or slowed by a {@link TcpProxy}, while another
 * client reaches Redis directly: the partitioned holder stops believing it holds its lock
 * before the other client can acquire it, calls with a wait return by the end of it,
 * however long the stall, and slow traffic that still lets renewals arrive in time keeps
 * the lock where it is.
 * <p>
 * "Before" is judged on the wall clock, between the holder's last look at its own
 * deadline and the moment the competitor's acquisition returned: a holder that believed
 * for longer than its lease allows, the flaw these tests look for, would overshoot by far
 * more than a round trip.
 *
 * @author setnx-lock authors
 */
class PartitionTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private RedisServer server;

	private TcpProxy proxy;

	@BeforeEach
	void startRedis() {
		this.server = RedisServer.start();
		this.proxy = TcpProxy.start(this.server);
	}

	@AfterEach
	void stopRedis() {
		this.proxy.close();
		this.server.close();
	}

	private static SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).leaseTime(LEASE).build();
	}

	/**
	 * Return a client that reaches Redis through the proxy.
	 */
	private FaultClient throughProxy(LockProtocol protocol, Duration commandTimeout) {
		return new FaultClient(RedisConnections.create(this.proxy, commandTimeout), settings(protocol));
	}

	/**
	 * Return a client that reaches Redis directly.
	 */
	private FaultClient direct(LockProtocol protocol) {
		return new FaultClient(RedisConnections.create(this.server, Duration.ofSeconds(2)), settings(protocol));
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aPartitionedHolderStopsBelievingBeforeAnotherClientAcquires(LockProtocol protocol) throws Exception {
		try (FaultClient partitioned = throughProxy(protocol, Duration.ofMillis(300));
				FaultClient other = direct(protocol)) {
			WatchfulHolder holder = WatchfulHolder.start(partitioned.registry.obtain("partitioned"));
			this.proxy.stall();
			LeasedLock competitor = other.registry.obtain("partitioned");
			assertThat(competitor.tryLock(LEASE.multipliedBy(10))).isTrue();
			long acquired = FaultClient.micros();
			try {
				assertThat(holder.stoppedBelieving()).as("the holder found out it lost the lock").isPositive();
				assertThat(holder.lastHeld()).as("last believed held, before the competitor acquired")
					.isLessThan(acquired);
				assertThat(competitor.fencingToken()).isGreaterThan(holder.token());
				System.out.printf("Partition, %s: holder stopped believing %d ms before the competitor acquired%n",
						protocol, (acquired - holder.lastHeld()) / 1000);
			}
			finally {
				competitor.unlock();
			}
			this.proxy.restore();
			assertThat(holder.unlock()).isEqualTo("lost");
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void callsDuringAPartitionReturnByTheEndOfTheirWaitAndLeaveNoLockBehind(LockProtocol protocol) throws Exception {
		Duration wait = Duration.ofMillis(400);
		Duration commandTimeout = Duration.ofSeconds(5);
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try (FaultClient partitioned = throughProxy(protocol, commandTimeout); FaultClient other = direct(protocol)) {
			this.proxy.stall();
			List<Future<Duration>> calls = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				LeasedLock lock = partitioned.registry.obtain("stalled-" + (i % 4));
				calls.add(pool.submit(() -> {
					long start = System.nanoTime();
					try {
						boolean acquired = lock.tryLock(wait);
						assertThat(acquired).as("acquired through a stalled connection").isFalse();
					}
					catch (LockAccessException ex) {
						assertThat(ex).hasMessageContaining("stalled-");
					}
					return Duration.ofNanos(System.nanoTime() - start);
				}));
			}
			Duration longest = Duration.ZERO;
			for (Future<Duration> call : calls) {
				Duration took = call.get(30, TimeUnit.SECONDS);
				longest = (took.compareTo(longest) > 0) ? took : longest;
			}
			System.out.printf("Partition, %s: %d calls with a wait of %d ms returned within %d ms%n", protocol, threads,
					wait.toMillis(), longest.toMillis());
			// The command timeout is 5 s: the wait is what bounds every call. The
			// margin is for a busy machine, not for the library.
			assertThat(longest).isLessThan(wait.plus(Duration.ofSeconds(2)));
			this.proxy.restore();
			// Acquisitions that reached Redis after their callers gave up are released,
			// or end with their lease: nothing is left held for long.
			for (int i = 0; i < 4; i++) {
				LeasedLock lock = other.registry.obtain("stalled-" + i);
				assertThat(lock.tryLock(LEASE.multipliedBy(5))).as("stalled-" + i + " left held").isTrue();
				lock.unlock();
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void slowTrafficThatLetsRenewalsArriveInTimeKeepsTheLock(LockProtocol protocol) throws Exception {
		try (FaultClient slow = throughProxy(protocol, Duration.ofSeconds(2)); FaultClient other = direct(protocol)) {
			WatchfulHolder holder = WatchfulHolder.start(slow.registry.obtain("slow"));
			// A 100 ms round trip against renewals due every third of a 1 s lease.
			this.proxy.delay(Duration.ofMillis(50));
			LeasedLock competitor = other.registry.obtain("slow");
			assertThat(competitor.tryLock(LEASE.multipliedBy(4))).isFalse();
			assertThat(holder.stoppedBelieving()).isZero();
			assertThat(holder.unlock()).isEqualTo("ok");
			assertThat(competitor.tryLock(LEASE)).isTrue();
			competitor.unlock();
		}
	}

}
