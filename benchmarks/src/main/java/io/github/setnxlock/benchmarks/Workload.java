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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

/**
 * Runs one contender: some threads, each taking and releasing one of some keys in a loop
 * until a time or a number of cycles is reached, timing every cycle and counting
 * mutual-exclusion violations.
 *
 * @param threads how many threads
 * @param keys how many keys; thread {@code i} uses key {@code i % keys}
 * @param duration how long to run, or {@code null} to stop on cycles alone
 * @param cyclesPerThread how many cycles each thread runs at most
 * @author setnx-lock authors
 */
public record Workload(int threads, int keys, Duration duration, long cyclesPerThread) {

	private static final AtomicLong RUNS = new AtomicLong();

	/**
	 * A workload that runs for a time.
	 * @param threads how many threads
	 * @param keys how many keys
	 * @param duration how long
	 * @return the workload
	 */
	public static Workload timed(int threads, int keys, Duration duration) {
		return new Workload(threads, keys, duration, Long.MAX_VALUE);
	}

	/**
	 * A workload that runs a number of cycles on every thread.
	 * @param threads how many threads
	 * @param keys how many keys
	 * @param cyclesPerThread how many cycles on each thread
	 * @return the workload
	 */
	public static Workload cycles(int threads, int keys, long cyclesPerThread) {
		return new Workload(threads, keys, null, cyclesPerThread);
	}

	/**
	 * Run the workload once on fresh keys.
	 * @param contender the contender
	 * @return what was measured
	 * @throws InterruptedException if interrupted while waiting for the workers
	 */
	public Result run(Contender contender) throws InterruptedException {
		String run = "run" + RUNS.incrementAndGet();
		AtomicInteger[] holders = new AtomicInteger[this.keys];
		for (int k = 0; k < this.keys; k++) {
			holders[k] = new AtomicInteger();
		}
		Histogram[] histograms = new Histogram[this.threads];
		for (int t = 0; t < this.threads; t++) {
			histograms[t] = new Histogram(3);
		}
		long[] cycles = new long[this.threads];
		AtomicLong violations = new AtomicLong();
		Workers.Outcome outcome = Workers.run(contender.name() + " " + run, this.threads, this.duration,
				(index) -> contender.lockFor(run + ":" + (index % this.keys)), (index, lock, end) -> {
					Histogram histogram = histograms[index];
					AtomicInteger holding = holders[index % this.keys];
					long done = 0;
					while (done < this.cyclesPerThread && (this.duration == null || System.nanoTime() - end < 0)) {
						long begin = System.nanoTime();
						lock.lock();
						if (holding.incrementAndGet() != 1 && contender.excludes()) {
							violations.incrementAndGet();
						}
						holding.decrementAndGet();
						lock.unlock();
						histogram.recordValue(System.nanoTime() - begin);
						done++;
					}
					cycles[index] = done;
				});
		Histogram all = new Histogram(3);
		long total = 0;
		for (int t = 0; t < this.threads; t++) {
			all.add(histograms[t]);
			total += cycles[t];
		}
		return new Result(contender.name(), total, outcome.elapsedNanos(), all, violations.get(), outcome.errors(),
				outcome.firstError());
	}

	/**
	 * What one run measured.
	 *
	 * @param contender the contender's name
	 * @param cycles the acquire+release cycles completed by all threads
	 * @param elapsedNanos from the start signal until the last worker finished
	 * @param latency the time of each cycle, in nanoseconds
	 * @param violations cycles that found another holder of their key while holding it
	 * @param errors workers that failed or got stuck
	 * @param firstError the first failure, or {@code null}
	 */
	public record Result(String contender, long cycles, long elapsedNanos, Histogram latency, long violations,
			long errors, Throwable firstError) implements Outcome {

		/**
		 * Return the completed cycles per second.
		 * @return the throughput
		 */
		public double cyclesPerSecond() {
			return this.cycles * 1e9 / this.elapsedNanos;
		}

	}

}
