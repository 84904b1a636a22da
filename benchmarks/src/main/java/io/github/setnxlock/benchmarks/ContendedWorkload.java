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
 * Runs one contender with some threads of one JVM all taking and releasing one key in a
 * loop, until a time or a number of acquisitions per thread is reached. It records, per
 * acquisition, the wait (from calling {@code lock()} to its return) and, when the lock
 * passes to another thread, the handoff: from the moment the previous holder was about to
 * call {@code unlock()} to the moment the next one's {@code lock()} returned. Both
 * moments come from {@link System#nanoTime()} in one JVM; the previous holder stamps its
 * moment in shared fields before releasing, so the next holder reads it only after
 * acquiring.
 *
 * @param threads how many threads
 * @param duration how long to run, or {@code null} to stop on acquisitions alone
 * @param cyclesPerThread how many acquisitions each thread makes at most
 * @author setnx-lock authors
 */
public record ContendedWorkload(int threads, Duration duration, long cyclesPerThread) {

	private static final AtomicLong RUNS = new AtomicLong();

	/**
	 * A workload that runs for a time.
	 * @param threads how many threads
	 * @param duration how long
	 * @return the workload
	 */
	public static ContendedWorkload timed(int threads, Duration duration) {
		return new ContendedWorkload(threads, duration, Long.MAX_VALUE);
	}

	/**
	 * A workload that makes a number of acquisitions on every thread.
	 * @param threads how many threads
	 * @param cyclesPerThread how many acquisitions on each thread
	 * @return the workload
	 */
	public static ContendedWorkload cycles(int threads, long cyclesPerThread) {
		return new ContendedWorkload(threads, null, cyclesPerThread);
	}

	/**
	 * Run the workload once on a fresh key.
	 * @param contender the contender
	 * @return what was measured
	 * @throws InterruptedException if interrupted while waiting for the workers
	 */
	public Result run(Contender contender) throws InterruptedException {
		String key = "contended" + RUNS.incrementAndGet();
		AtomicInteger holding = new AtomicInteger();
		LastRelease last = new LastRelease();
		Histogram[] waits = new Histogram[this.threads];
		Histogram[] handoffs = new Histogram[this.threads];
		long[] cycles = new long[this.threads];
		long[] again = new long[this.threads];
		AtomicLong violations = new AtomicLong();
		for (int t = 0; t < this.threads; t++) {
			waits[t] = new Histogram(3);
			handoffs[t] = new Histogram(3);
		}
		Workers.Outcome outcome = Workers.run(contender.name() + " " + key, this.threads, this.duration,
				(index) -> contender.lockFor(key), (index, lock, end) -> {
					Histogram wait = waits[index];
					Histogram handoff = handoffs[index];
					long done = 0;
					while (done < this.cyclesPerThread && (this.duration == null || System.nanoTime() - end < 0)) {
						long calling = System.nanoTime();
						lock.lock();
						long acquired = System.nanoTime();
						// Read before anything else: these are only stable while this
						// thread holds the lock.
						long releasedAt = last.at;
						int releasedBy = last.by;
						if (holding.incrementAndGet() != 1) {
							violations.incrementAndGet();
						}
						wait.recordValue(acquired - calling);
						if (releasedBy == index) {
							again[index]++;
						}
						else if (releasedBy >= 0) {
							// Never negative unless exclusion failed, which is counted
							// above; the histogram refuses negative values.
							handoff.recordValue(Math.max(0, acquired - releasedAt));
						}
						holding.decrementAndGet();
						last.by = index;
						last.at = System.nanoTime();
						lock.unlock();
						done++;
					}
					cycles[index] = done;
				});
		Histogram allWaits = new Histogram(3);
		Histogram allHandoffs = new Histogram(3);
		long total = 0;
		long sameThread = 0;
		for (int t = 0; t < this.threads; t++) {
			allWaits.add(waits[t]);
			allHandoffs.add(handoffs[t]);
			total += cycles[t];
			sameThread += again[t];
		}
		return new Result(contender.name(), total, outcome.elapsedNanos(), allWaits, allHandoffs, sameThread, 0,
				violations.get(), outcome.errors(), outcome.firstError());
	}

	/**
	 * Who released the key last and when; written by the holder just before it releases,
	 * read by the next holder just after it acquires.
	 */
	private static final class LastRelease {

		volatile long at;

		volatile int by = -1;

	}

	/**
	 * What one run measured.
	 *
	 * @param contender the contender's name
	 * @param cycles the acquisitions (each followed by a release) of all threads
	 * @param elapsedNanos from the start signal until the last worker finished
	 * @param waits from calling {@code lock()} to its return, per acquisition, in
	 * nanoseconds
	 * @param handoffs from the previous holder's release to this acquisition, for each
	 * acquisition by a thread other than the previous holder, in nanoseconds
	 * @param sameThreadAgain acquisitions by the thread that had just released the key
	 * @param crossJvmHandoffs handoffs from a thread of one JVM to a thread of another
	 * ({@link TwoJvms}); 0 in one JVM
	 * @param violations acquisitions that found another holder of the key
	 * @param errors workers that failed or got stuck
	 * @param firstError the first failure, or {@code null}
	 */
	public record Result(String contender, long cycles, long elapsedNanos, Histogram waits, Histogram handoffs,
			long sameThreadAgain, long crossJvmHandoffs, long violations, long errors,
			Throwable firstError) implements Outcome {

		/**
		 * Return the acquisitions per second.
		 * @return the throughput
		 */
		public double cyclesPerSecond() {
			return this.cycles * 1e9 / this.elapsedNanos;
		}

		/**
		 * Return the share of acquisitions, after the first, made by the thread that had
		 * just released the key.
		 * @return a fraction between 0 and 1
		 */
		public double sameThreadShare() {
			long followers = this.sameThreadAgain + this.handoffs.getTotalCount();
			return (followers > 0) ? (double) this.sameThreadAgain / followers : Double.NaN;
		}

		/**
		 * Return the share of handoffs that went from one JVM to another.
		 * @return a fraction between 0 and 1
		 */
		public double crossJvmShare() {
			long handoffs = this.handoffs.getTotalCount();
			return (handoffs > 0) ? (double) this.crossJvmHandoffs / handoffs : Double.NaN;
		}

	}

}
