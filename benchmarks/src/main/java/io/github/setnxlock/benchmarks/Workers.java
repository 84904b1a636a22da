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

package io.github.setnxlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Runs the threads of one workload run together: each obtains its lock first, then all
 * start at one signal, so that obtaining locks does not count; a thread still running
 * well past the run's end is reported as stuck rather than waited for forever.
 *
 * @author setnx-lock authors
 */
final class Workers {

	private static final Duration STUCK_AFTER = Duration.ofSeconds(60);

	private Workers() {
	}

	/**
	 * What one thread of a run does once started.
	 */
	interface Body {

		/**
		 * Work until done or until the end.
		 * @param index the thread's index
		 * @param lock the lock it obtained
		 * @param end the run's end on {@link System#nanoTime()}, when it has a duration
		 * @throws Exception if the work failed
		 */
		void work(int index, Contender.KeyLock lock, long end) throws Exception;

	}

	/**
	 * How a run went, apart from what its bodies measured.
	 *
	 * @param elapsedNanos from the start signal until the last thread finished
	 * @param errors threads that failed or got stuck
	 * @param firstError the first failure, or {@code null}
	 */
	record Outcome(long elapsedNanos, long errors, Throwable firstError) {

	}

	/**
	 * Run the threads and wait for them.
	 * @param name what the threads are named after
	 * @param threads how many threads
	 * @param duration how long the run lasts, or {@code null} for a run of cycles
	 * @param locks the lock each thread uses, by index
	 * @param body what each thread does
	 * @return how the run went
	 * @throws InterruptedException if interrupted while waiting for the threads
	 */
	static Outcome run(String name, int threads, Duration duration, IntFunction<Contender.KeyLock> locks, Body body)
			throws InterruptedException {
		AtomicLong errors = new AtomicLong();
		AtomicReference<Throwable> firstError = new AtomicReference<>();
		CountDownLatch ready = new CountDownLatch(threads);
		CountDownLatch start = new CountDownLatch(1);
		long[] deadline = new long[1];
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int index = t;
			Thread worker = new Thread(() -> {
				try {
					Contender.KeyLock lock = locks.apply(index);
					ready.countDown();
					start.await();
					body.work(index, lock, deadline[0]);
				}
				catch (Throwable ex) {
					errors.incrementAndGet();
					firstError.compareAndSet(null, ex);
					ready.countDown();
				}
			}, name + " worker " + t);
			worker.setDaemon(true);
			workers.add(worker);
			worker.start();
		}
		ready.await();
		long begin = System.nanoTime();
		deadline[0] = begin + ((duration != null) ? duration.toNanos() : 0);
		start.countDown();
		long waitMillis = ((duration != null) ? duration : Duration.ZERO).plus(STUCK_AFTER).toMillis();
		for (Thread worker : workers) {
			worker.join(Math.max(1, waitMillis - Duration.ofNanos(System.nanoTime() - begin).toMillis()));
			if (worker.isAlive()) {
				errors.incrementAndGet();
				firstError.compareAndSet(null, new IllegalStateException(worker.getName() + " is stuck"));
				worker.interrupt();
			}
		}
		return new Outcome(System.nanoTime() - begin, errors.get(), firstError.get());
	}

}
