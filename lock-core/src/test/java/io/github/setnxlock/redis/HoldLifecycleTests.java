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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.operator.HeldLock;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How a hold ends, whatever ends it: what it asked for dies with it. A hold whose thread
 * died on an explicit lease leaves this JVM; the deadline watch of
 * {@link LeasedLock#interruptOnLoss()} goes when the hold ends; and an inner, reentrant
 * entry's request to be interrupted ends with that entry, not with the hold.
 *
 * @author setnx-lock authors
 */
class HoldLifecycleTests {

	/** The registry's lease: its renewal thread looks every sixth of it. */
	private static final Duration LEASE = Duration.ofMillis(600);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<Object> heard = new CopyOnWriteArrayList<>();

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aHoldOnAnExplicitLeaseWhoseThreadDiedLeavesThisJvm(LockProtocol protocol) throws Exception {
		try (TestClient client = client(protocol)) {
			AtomicReference<List<String>> heldBeforeDying = new AtomicReference<>();
			Thread holder = new Thread(() -> {
				if (tryLock(client.registry.obtain("orphan"))) {
					heldBeforeDying
						.set(client.registry.operations().heldLocks().stream().map(HeldLock::thread).toList());
				}
			}, "orphan-holder");
			holder.start();
			holder.join();
			assertThat(heldBeforeDying.get()).containsExactly("orphan-holder");
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				assertThat(client.registry.operations().heldLocks()).isEmpty();
				assertThat(client.registry.localKeyCount()).isZero();
				// Told on the registry's events thread, so heard a moment later.
				assertThat(this.heard).filteredOn(LockListener.Release.class::isInstance)
					.singleElement()
					.satisfies((release) -> assertThat(((LockListener.Release) release).lost()).isTrue());
			});
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theDeadlineWatchOfInterruptOnLossEndsWithTheHold(LockProtocol protocol) throws Exception {
		try (TestClient client = client(protocol)) {
			// A hold of its own keeps the renewal thread's ticks going: the baseline.
			LeasedLock ticking = client.registry.obtain("ticking");
			ticking.lock();
			try {
				int before = client.registry.engine().stats().scheduledTasks();
				for (int i = 0; i < 20; i++) {
					LeasedLock lock = client.registry.obtain("watched-" + i);
					assertThat(lock.tryLock(Duration.ZERO, Duration.ofMinutes(10))).isTrue();
					lock.interruptOnLoss();
					lock.unlock();
				}
				assertThat(client.registry.engine().stats().scheduledTasks()).isLessThanOrEqualTo(before);
			}
			finally {
				ticking.unlock();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void anInnerEntrysInterruptOnLossEndsWithThatEntry(LockProtocol protocol) throws Exception {
		try (TestClient client = client(protocol); TestClient thief = client(protocol)) {
			CountDownLatch innerDone = new CountDownLatch(1);
			AtomicReference<Object> outcome = new AtomicReference<>();
			Thread holder = new Thread(() -> {
				LeasedLock lock = client.registry.obtain("nested");
				lock.lock();
				lock.lock();
				lock.interruptOnLoss();
				lock.unlock();
				innerDone.countDown();
				try {
					// The outer code never asked to be interrupted: it works on until it
					// finds the lock lost, and unlock() then tells it so.
					await().pollInSameThread()
						.atMost(Duration.ofSeconds(10))
						.until(() -> !lock.isHeldByCurrentThread());
				}
				catch (RuntimeException ex) {
					outcome.set(ex);
					return;
				}
				boolean interrupted = Thread.interrupted();
				try {
					lock.unlock();
					outcome.set("unlocked, interrupted " + interrupted);
				}
				catch (LockLostException ex) {
					outcome.set("lost, interrupted " + interrupted);
				}
			}, "nested-holder");
			holder.start();
			assertThat(innerDone.await(10, TimeUnit.SECONDS)).isTrue();
			// Another client takes the key: the next renewal finds it gone.
			redis.server().execute("DEL", "lock:nested");
			LeasedLock stolen = thief.registry.obtain("nested");
			assertThat(stolen.tryLock(Duration.ofSeconds(5))).isTrue();
			holder.join(TimeUnit.SECONDS.toMillis(15));
			stolen.unlock();
			assertThat(outcome.get()).isEqualTo("lost, interrupted false");
			assertThat(this.heard).filteredOn(LockLostEvent.class::isInstance).isNotEmpty();
		}
	}

	private static boolean tryLock(LeasedLock lock) {
		try {
			return lock.tryLock(Duration.ZERO, Duration.ofMinutes(10));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private TestClient client(LockProtocol protocol) {
		return new TestClient(redis.server(),
				SetnxLockSettings.builder()
					.protocol(protocol)
					.timestampUnit(TimestampUnit.MILLISECONDS)
					.leaseTime(LEASE)
					.build(),
				Duration.ofSeconds(2), List.of(recording()));
	}

	private LockListener recording() {
		return new LockListener() {

			@Override
			public void released(Release release) {
				HoldLifecycleTests.this.heard.add(release);
			}

			@Override
			public void lockLost(LockLostEvent event) {
				HoldLifecycleTests.this.heard.add(event);
			}

		};
	}

}
