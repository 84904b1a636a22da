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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads one JVM runs in a {@link TwoJvms} run: they start at an agreed moment of
 * the wall clock and stamp each acquisition in microseconds of it, so that the stamps of
 * both JVMs fall on one timeline.
 *
 * @author setnx-lock authors
 */
final class StampedWorkers {

	// A worker that has not finished this long after the deadline is stuck in the
	// contender: report it rather than wait forever.
	private static final Duration STUCK_AFTER = Duration.ofSeconds(60);

	private StampedWorkers() {
	}

	/**
	 * Run the contender on this JVM's threads as the run says.
	 * @param contender the contender
	 * @param run the key, threads, start, end and acquisitions per thread
	 * @param jvm which JVM this is: 0 the parent, 1 the child
	 * @return the acquisitions of every thread and how many workers failed
	 * @throws InterruptedException if interrupted while waiting for the workers
	 */
	static Stamps run(Contender contender, ChildJvm.Run run, int jvm) throws InterruptedException {
		// One reading of the wall clock, then the monotonic clock from there: cheaper
		// than the wall clock per stamp, and never going back.
		long baseMicros = wallMicros();
		long baseNanos = System.nanoTime();
		long startMicros = run.startMicros();
		long endMicros = (run.duration() != null) ? startMicros + run.duration().toNanos() / 1000 : Long.MAX_VALUE;
		List<List<Acquisition>> perThread = new ArrayList<>();
		AtomicLong errors = new AtomicLong();
		AtomicReference<Throwable> firstError = new AtomicReference<>();
		CountDownLatch done = new CountDownLatch(run.threads());
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < run.threads(); t++) {
			int index = t;
			List<Acquisition> acquisitions = new ArrayList<>();
			perThread.add(acquisitions);
			Thread worker = new Thread(() -> {
				try {
					Contender.KeyLock lock = contender.lockFor(run.key());
					long wait;
					while ((wait = startMicros - micros(baseMicros, baseNanos)) > 0) {
						LockSupport.parkNanos(Math.min(wait * 1000, 1_000_000));
					}
					long count = 0;
					while (count < run.cyclesPerThread() && micros(baseMicros, baseNanos) < endMicros) {
						long called = micros(baseMicros, baseNanos);
						lock.lock();
						long entered = micros(baseMicros, baseNanos);
						long left = micros(baseMicros, baseNanos);
						lock.unlock();
						acquisitions.add(new Acquisition(jvm, index, called, entered, left));
						count++;
					}
				}
				catch (Throwable ex) {
					errors.incrementAndGet();
					firstError.compareAndSet(null, ex);
				}
				finally {
					done.countDown();
				}
			}, contender.name() + " " + run.key() + " jvm " + jvm + " worker " + t);
			worker.setDaemon(true);
			workers.add(worker);
			worker.start();
		}
		long untilEnd = Math.max(0,
				((run.duration() != null) ? endMicros : startMicros) - micros(baseMicros, baseNanos));
		if (!done.await(untilEnd / 1000 + STUCK_AFTER.toMillis(), TimeUnit.MILLISECONDS)) {
			for (Thread worker : workers) {
				if (worker.isAlive()) {
					errors.incrementAndGet();
					firstError.compareAndSet(null, new IllegalStateException(worker.getName() + " is stuck"));
					worker.interrupt();
				}
			}
			// the stuck workers may still add to their lists
			return new Stamps(List.of(), errors.get(), firstError.get());
		}
		List<Acquisition> all = new ArrayList<>();
		perThread.forEach(all::addAll);
		return new Stamps(all, errors.get(), firstError.get());
	}

	static long wallMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

	private static long micros(long baseMicros, long baseNanos) {
		return baseMicros + (System.nanoTime() - baseNanos) / 1000;
	}

	/**
	 * One acquisition, stamped in microseconds of the wall clock.
	 *
	 * @param jvm 0 for the parent, 1 for the child
	 * @param thread the worker's index in its JVM
	 * @param called when {@code lock()} was called
	 * @param entered when it had returned
	 * @param left when {@code unlock()} was about to be called
	 */
	record Acquisition(long jvm, long thread, long called, long entered, long left) {

	}

	/**
	 * What one JVM's threads did in a run.
	 *
	 * @param acquisitions every acquisition of every thread, empty when a worker got
	 * stuck
	 * @param errors workers that failed or got stuck
	 * @param firstError the first failure, or {@code null}
	 */
	record Stamps(List<Acquisition> acquisitions, long errors, Throwable firstError) {

	}

}
