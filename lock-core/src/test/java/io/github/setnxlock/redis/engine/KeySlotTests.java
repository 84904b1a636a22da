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

package io.github.setnxlock.redis.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The slot of a key in one JVM: owners get it in the order they came, one whose wait ends
 * leaves the line without breaking it, and no two ever own it at once. Each thread here
 * waits on its claim as the thread-bound view waits on its acquisition. The slot is local
 * to the JVM, so these tests need no Redis.
 *
 * @author setnx-lock authors
 */
class KeySlotTests {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

	@AfterEach
	void stop() throws InterruptedException {
		this.threads.shutdownNow();
		this.timer.shutdownNow();
		assertThat(this.threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	/**
	 * Claim the slot and wait for the claim on this thread.
	 */
	private boolean claim(KeyState state, Object owner, long waitNanos) throws Exception {
		long start = System.nanoTime();
		long deadline = (waitNanos == LeaseLimits.NO_LIMIT_NANOS) ? Waits.NO_DEADLINE : start + waitNanos;
		return state.slot
			.claimAsync(owner, deadline, false,
					(task, at) -> this.timer.schedule(task, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS))
			.get() != null;
	}

	@Test
	void waitersTakeTheSlotInTheOrderTheyCameAndOneWhoseWaitEndsLeavesTheLine() throws Exception {
		KeyState state = new KeyStates().retain("lock:line");
		assertThat(claim(state, Thread.currentThread(), 0)).isTrue();
		List<Integer> order = new CopyOnWriteArrayList<>();
		List<Future<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			int number = i;
			// The third waits only briefly, and leaves the line while the others wait.
			long waitNanos = (number == 2) ? TimeUnit.MILLISECONDS.toNanos(200) : LeaseLimits.NO_LIMIT_NANOS;
			waiters.add(this.threads.submit(() -> {
				Thread self = Thread.currentThread();
				if (!claim(state, self, waitNanos)) {
					return false;
				}
				order.add(number);
				state.released(self, KeyState.NOT_ANNOUNCED);
				return true;
			}));
			// In line once counted (the third may have left already).
			await().atMost(Duration.ofSeconds(10))
				.until(() -> state.slotWaiters() == number + 1 - ((number >= 2 && waiters.get(2).isDone()) ? 1 : 0));
		}
		assertThat(waiters.get(2).get(10, TimeUnit.SECONDS)).isFalse();
		assertThat(state.slotWaiters()).isEqualTo(5);
		state.released(Thread.currentThread(), KeyState.NOT_ANNOUNCED);
		for (Future<Boolean> waiter : waiters) {
			waiter.get(10, TimeUnit.SECONDS);
		}
		assertThat(order).containsExactly(0, 1, 3, 4, 5);
		assertThat(state.slotWaiters()).isZero();
	}

	@Test
	void manyThreadsWithWaitsThatEndNeverOwnTheSlotTogetherAndNoneIsLeftWaiting() throws Exception {
		KeyState state = new KeyStates().retain("lock:many");
		int threadCount = 16;
		int rounds = 2_000;
		AtomicInteger owners = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger taken = new AtomicInteger();
		AtomicInteger givenUp = new AtomicInteger();
		AtomicInteger refusedWithoutLimit = new AtomicInteger();
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threadCount; t++) {
			long seed = t;
			workers.add(this.threads.submit(() -> {
				Random random = new Random(seed);
				Thread self = Thread.currentThread();
				for (int i = 0; i < rounds; i++) {
					// Half wait without a limit, the others for 0 to 200 µs.
					long waitNanos = random.nextBoolean() ? LeaseLimits.NO_LIMIT_NANOS
							: TimeUnit.MICROSECONDS.toNanos(random.nextInt(200));
					if (claim(state, self, waitNanos)) {
						if (owners.incrementAndGet() != 1) {
							overlaps.incrementAndGet();
						}
						if (random.nextInt(8) == 0) {
							Thread.yield();
						}
						owners.decrementAndGet();
						taken.incrementAndGet();
						state.released(self, KeyState.NOT_ANNOUNCED);
					}
					else {
						givenUp.incrementAndGet();
						if (waitNanos == LeaseLimits.NO_LIMIT_NANOS) {
							refusedWithoutLimit.incrementAndGet();
						}
					}
				}
				return null;
			}));
		}
		for (Future<?> worker : workers) {
			worker.get(120, TimeUnit.SECONDS);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(taken.get() + givenUp.get()).isEqualTo(threadCount * rounds);
		// A thread without a limit gets the slot each time it asks.
		assertThat(refusedWithoutLimit).hasValue(0);
		assertThat(taken.get()).isGreaterThan(threadCount * rounds / 4);
		assertThat(state.slotWaiters()).isZero();
	}

}
