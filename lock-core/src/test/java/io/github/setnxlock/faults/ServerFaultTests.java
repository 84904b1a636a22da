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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults an operator or the server itself brings on the library's connections:
 * {@code CLIENT KILL} of every connection (commands and the release subscription), and
 * {@code CLIENT PAUSE} of the whole server for longer than a lease.
 *
 * @author setnx-lock authors
 */
class ServerFaultTests {

	private static SetnxLockSettings settings(LockProtocol protocol, Duration lease) {
		return SetnxLockSettings.builder().protocol(protocol).leaseTime(lease).build();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void afterItsConnectionsAreKilledTheLibraryReconnectsAndWaitersAreStillWokenByReleases(LockProtocol protocol)
			throws Exception {
		// A lease far longer than any wait here: a waiter that missed the release would
		// wait for all of it.
		Duration lease = Duration.ofSeconds(60);
		try (RedisServer server = RedisServer.start();
				FaultClient holder = new FaultClient(RedisConnections.create(server, Duration.ofSeconds(2)),
						settings(protocol, lease));
				FaultClient waiter = new FaultClient(RedisConnections.create(server, Duration.ofSeconds(2)),
						settings(protocol, lease))) {
			List<Long> handoffs = new ArrayList<>();
			AtomicInteger killedCalls = new AtomicInteger();
			for (int round = 0; round < 5; round++) {
				LeasedLock held = holder.registry.obtain("killed");
				held.lock();
				LeasedLock wanted = waiter.registry.obtain("killed");
				CompletableFuture<Long> acquired = CompletableFuture.supplyAsync(() -> {
					long start = System.nanoTime();
					while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30)) {
						try {
							if (wanted.tryLock(Duration.ofSeconds(30))) {
								long took = System.nanoTime() - start;
								wanted.unlock();
								return took;
							}
						}
						catch (LockAccessException ex) {
							// A command of the waiter's that was out when its connection
							// was killed fails, as any call does when Redis drops it; the
							// caller may try again.
							killedCalls.incrementAndGet();
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
							return -1L;
						}
					}
					return -1L;
				});
				Thread.sleep(200);
				assertThat(server.execute("CLIENT", "KILL", "TYPE", "normal")).isInstanceOf(Long.class);
				assertThat(server.execute("CLIENT", "KILL", "TYPE", "pubsub")).isInstanceOf(Long.class);
				// Let the subscription come back, or not: either way the waiter must not
				// wait for the whole lease.
				Thread.sleep(round * 300L);
				held.unlock();
				long took = acquired.get(40, TimeUnit.SECONDS);
				assertThat(took).as("round %d: the waiter got the lock", round).isPositive();
				handoffs.add(TimeUnit.NANOSECONDS.toMillis(took));
			}
			System.out.printf("CLIENT KILL, %s: waits for a lock released after the kill: %s ms%n", protocol, handoffs);
			assertThat(handoffs).allSatisfy((millis) -> assertThat(millis).isLessThan(10_000));
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aServerPausedForLongerThanTheLeaseEndsTheHoldBeforeAnyoneElseAcquires(LockProtocol protocol) throws Exception {
		Duration lease = Duration.ofSeconds(1);
		Duration pause = Duration.ofMillis(2500);
		try (RedisServer server = RedisServer.start();
				FaultClient holding = new FaultClient(RedisConnections.create(server, Duration.ofSeconds(10)),
						settings(protocol, lease));
				FaultClient other = new FaultClient(RedisConnections.create(server, Duration.ofSeconds(10)),
						settings(protocol, lease))) {
			WatchfulHolder holder = WatchfulHolder.start(holding.registry.obtain("paused"));
			server.execute("CLIENT", "PAUSE", Long.toString(pause.toMillis()), "ALL");
			long pausedAt = System.nanoTime();
			LeasedLock competitor = other.registry.obtain("paused");
			Duration wait = Duration.ofMillis(400);
			long start = System.nanoTime();
			try {
				assertThat(competitor.tryLock(wait)).isFalse();
			}
			catch (LockAccessException ex) {
				assertThat(ex).hasMessageContaining("'paused'");
			}
			// The command timeout is 10 s: the wait bounds the call, with a margin for a
			// busy machine.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(wait.plus(Duration.ofSeconds(2)));
			assertThat(competitor.tryLock(lease.multipliedBy(10))).isTrue();
			long acquired = FaultClient.micros();
			try {
				assertThat(System.nanoTime() - pausedAt).as("acquired only after the pause")
					.isGreaterThanOrEqualTo(pause.toNanos() - TimeUnit.MILLISECONDS.toNanos(100));
				assertThat(holder.stoppedBelieving()).as("the holder found out it lost the lock").isPositive();
				assertThat(holder.lastHeld()).isLessThan(acquired);
				assertThat(competitor.fencingToken()).isGreaterThan(holder.token());
				System.out.printf(
						"CLIENT PAUSE, %s: the holder stopped believing %d ms before the competitor acquired%n",
						protocol, (acquired - holder.lastHeld()) / 1000);
			}
			finally {
				competitor.unlock();
			}
			assertThat(holder.unlock()).isEqualTo("lost");
		}
	}

}
