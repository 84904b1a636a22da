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
package io.github.setnxlock.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.LeaderEventPublisher;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.leader.Context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link SetnxIntegrationLockRegistry}: Spring Integration's lock registry contract on
 * setnx-lock's locks, in two applications (two registries with their own connections)
 * against a real Redis, and {@link LockRegistryLeaderInitiator} over it.
 *
 * @author setnx-lock authors
 */
class SetnxIntegrationLockRegistryTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<SetnxLockRegistry> registries = new ArrayList<>();

	private SetnxIntegrationLockRegistry first;

	private SetnxIntegrationLockRegistry second;

	private String key;

	@BeforeEach
	void connect() {
		this.first = new SetnxIntegrationLockRegistry(registry());
		this.second = new SetnxIntegrationLockRegistry(registry());
		this.key = "si-" + UUID.randomUUID();
	}

	@AfterEach
	void disconnect() {
		this.registries.forEach(SetnxLockRegistry::close);
		this.factories.forEach(RedisConnections::destroy);
	}

	@Test
	void locksOfTwoApplicationsExcludeEachOtherThroughExecuteLocked() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		List<CompletableFuture<Void>> workers = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			SetnxIntegrationLockRegistry registry = (t % 2 == 0) ? this.first : this.second;
			workers.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 40; i++) {
					try {
						registry.executeLocked(this.key, Duration.ofSeconds(30), () -> {
							if (inside.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							// Long enough for an overlap to be seen.
							Thread.yield();
							inside.decrementAndGet();
							done.incrementAndGet();
						});
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}
			}));
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		assertThat(overlaps).hasValue(0);
		assertThat(done).hasValue(8 * 40);
		assertThat(server().execute("EXISTS", "lock:" + this.key)).isEqualTo(0L);
	}

	@Test
	void theSameKeysAsTheSetnxLockRegistrysAndTheLockIsReentrant() throws Exception {
		DistributedLock lock = this.first.obtain(this.key);
		lock.lock();
		lock.lock();
		assertThat(server().execute("EXISTS", "lock:" + this.key)).isEqualTo(1L);
		LeasedLock same = this.registries.get(1).obtain(this.key);
		assertThat(CompletableFuture.supplyAsync(same::tryLock).get(10, TimeUnit.SECONDS)).isFalse();
		lock.unlock();
		assertThat(server().execute("EXISTS", "lock:" + this.key)).isEqualTo(1L);
		lock.unlock();
		assertThat(server().execute("EXISTS", "lock:" + this.key)).isEqualTo(0L);
	}

	@Test
	void aTimeToLiveIsHeldAndNeverRenewedAndRenewLockGivesANewOne() throws Exception {
		DistributedLock lock = this.first.obtain(this.key);
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(1))).isTrue();
		this.first.renewLock(this.key, Duration.ofSeconds(5));
		Thread.sleep(1500);
		// Past the first time to live, held thanks to the renewal.
		this.first.renewLock(this.key);
		assertThat((Long) server().execute("PTTL", "lock:" + this.key)).isGreaterThan(3000L);
		lock.unlock();
		DistributedLock shortLived = this.first.obtain(this.key + "-short");
		shortLived.lock(Duration.ofMillis(200));
		Thread.sleep(500);
		// The registry's watchdog renews its other holds meanwhile, but not a time to
		// live.
		assertThat(server().execute("EXISTS", "lock:" + this.key + "-short")).isEqualTo(0L);
		assertThatIllegalStateException().isThrownBy(() -> this.first.renewLock(this.key + "-short"))
			.withCauseInstanceOf(LockLostException.class);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(shortLived::unlock)
			.withCauseInstanceOf(LockLostException.class);
	}

	@Test
	void renewLockNeedsTheCurrentThreadsHoldAndALeaseOfItsOwn() {
		assertThatIllegalStateException().isThrownBy(() -> this.first.renewLock(this.key, Duration.ofSeconds(5)))
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		DistributedLock lock = this.first.obtain(this.key);
		lock.lock();
		this.first.renewLock(this.key);
		assertThatIllegalStateException().isThrownBy(() -> this.first.renewLock(this.key, Duration.ofSeconds(5)))
			.withMessageContaining("renewed by the registry");
		lock.unlock();
		this.first.expireUnusedOlderThan(0);
	}

	@Test
	void aKeyHasOneHandleWhileReferencedAndNoneOnceNobodyIs() {
		DistributedLock kept = this.first.obtain(this.key);
		for (int i = 0; i < 10_000; i++) {
			DistributedLock dropped = this.first.obtain(this.key + "-" + i);
			if (i % 1000 == 0) {
				dropped.lock();
				dropped.unlock();
			}
		}
		// Handles nobody references go with the garbage collector's next pass; a test
		// cannot do better than ask for one until it came.
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return this.first.handleCount() == 1;
		});
		assertThat(this.first.obtain(this.key)).isSameAs(kept);
		assertThat(this.first.handleCount()).isEqualTo(1);
	}

	@Test
	void aHandleLetGoWhileHeldIsReplacedByOneThatReleasesTheSameHold() {
		this.first.obtain(this.key).lock();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return this.first.handleCount() == 0;
		});
		// The hold is the thread's, not the handle's.
		DistributedLock again = this.first.obtain(this.key);
		again.unlock();
		assertThat(server().execute("EXISTS", "lock:" + this.key)).isEqualTo(0L);
	}

	@Test
	void theLeaderInitiatorsOfTwoApplicationsElectOneLeaderAndFailOver() throws Exception {
		// A lease that no stall of a busy machine outlasts, so that leadership changes
		// only when the test makes it: 2 s was outlasted by the first test of a JVM that
		// started three test classes and other JVMs on a loaded machine.
		Leadership one = new Leadership(new SetnxIntegrationLockRegistry(registry(Duration.ofSeconds(10))), this.key);
		Leadership two = new Leadership(new SetnxIntegrationLockRegistry(registry(Duration.ofSeconds(10))), this.key);
		try {
			one.initiator.start();
			two.initiator.start();
			await().atMost(Duration.ofSeconds(20)).until(() -> one.isLeader() || two.isLeader());
			Thread.sleep(1500);
			// Several heartbeats later, still exactly one.
			assertThat(one.isLeader() ^ two.isLeader()).isTrue();
			Leadership leader = one.isLeader() ? one : two;
			Leadership follower = (leader == one) ? two : one;
			leader.initiator.stop();
			await().atMost(Duration.ofSeconds(20)).until(follower::isLeader);
			assertThat(leader.isLeader()).isFalse();
			assertThat(follower.events).containsExactly("granted");
			// The new leader's key is taken from under it: it gives the leadership up
			// at its next heartbeat.
			server().execute("SET", "lock:" + this.key, "someone-else");
			await().atMost(Duration.ofSeconds(20)).until(() -> follower.events.contains("revoked"));
			assertThat(follower.isLeader()).isFalse();
			server().execute("DEL", "lock:" + this.key);
			await().atMost(Duration.ofSeconds(20)).until(follower::isLeader);
		}
		finally {
			one.initiator.stop();
			two.initiator.stop();
		}
	}

	private SetnxLockRegistry registry() {
		// A short lease, so that the watchdog runs several times during a test.
		return registry(Duration.ofSeconds(1));
	}

	private SetnxLockRegistry registry(Duration lease) {
		LettuceConnectionFactory factory = RedisConnections.create(server(), Duration.ofSeconds(2));
		this.factories.add(factory);
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.builder().leaseTime(lease).build());
		this.registries.add(registry);
		return registry;
	}

	private static RedisServer server() {
		return redis.server();
	}

	/**
	 * One application's leader initiator for a role, and what it was told.
	 */
	private static final class Leadership {

		final LockRegistryLeaderInitiator initiator;

		final List<String> events = new CopyOnWriteArrayList<>();

		private volatile Context context;

		Leadership(SetnxIntegrationLockRegistry registry, String role) {
			this.initiator = new LockRegistryLeaderInitiator(registry,
					new DefaultCandidate(UUID.randomUUID().toString(), role));
			this.initiator.setHeartBeatMillis(100);
			this.initiator.setBusyWaitMillis(20);
			this.initiator.setLeaderEventPublisher(new LeaderEventPublisher() {

				@Override
				public void publishOnGranted(Object source, Context context, String role) {
					Leadership.this.context = context;
					Leadership.this.events.add("granted");
				}

				@Override
				public void publishOnRevoked(Object source, Context context, String role) {
					Leadership.this.events.add("revoked");
				}

				@Override
				public void publishOnFailedToAcquire(Object source, Context context, String role) {
				}

			});
		}

		boolean isLeader() {
			return this.initiator.getContext().isLeader();
		}

	}

}
