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

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.test.RedisConnections;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One JVM's side of a contended-lock run: several threads take the same lock over and
 * over for a while, and every critical section is written down (JVM, thread, when the
 * thread asked, when it entered, when it left, in microseconds of the wall clock, which
 * all JVMs of one machine share). {@link CrossJvmHandoffTests} runs it in its own JVM and
 * in a child JVM against one {@code redis-server} and checks the merged history.
 * <p>
 * Both JVMs connect and warm up first, then start together at a wall-clock time the
 * parent sets once the child says it is ready (files in a directory both see), so that
 * start-up of the child JVM does not count as waiting, and no fixed allowance for it is
 * spent.
 * <p>
 * A worker that fails makes the run fail ({@link #run} throws, the child JVM exits with
 * 1), so a history with silent gaps is never checked as if it were whole.
 * <p>
 * Arguments: Redis port, lock key, threads, run time in ms, output file, JVM name,
 * protocol, the directory of the handshake.
 *
 * @author setnx-lock authors
 */
public final class HandoffHarness {

	private static final String READY = "ready";

	private static final String START = "start";

	private HandoffHarness() {
	}

	public static void main(String[] args) {
		try {
			run(Integer.parseInt(args[0]), args[1], Integer.parseInt(args[2]),
					Duration.ofMillis(Long.parseLong(args[3])), Path.of(args[4]), args[5],
					() -> readyThenStartTime(Path.of(args[7])), LockProtocol.valueOf(args[6]));
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
		// Lettuce's threads would keep a JVM whose work is done alive.
		System.exit(0);
	}

	/**
	 * The child's side of the handshake: say it is ready, then wait for the start time.
	 */
	static long readyThenStartTime(Path handshake) throws IOException, InterruptedException {
		Files.writeString(handshake.resolve(READY), "");
		Path start = handshake.resolve(START);
		while (!Files.exists(start)) {
			Thread.sleep(5);
		}
		return Long.parseLong(Files.readString(start).trim());
	}

	/**
	 * The parent's side: wait until the child is ready, then set the start time a moment
	 * ahead (the child looks for it every few milliseconds).
	 */
	static long startTimeOnceReady(Path handshake, Process child, Path childLog)
			throws IOException, InterruptedException {
		long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!Files.exists(handshake.resolve(READY))) {
			if (!child.isAlive() || System.nanoTime() - giveUp > 0) {
				throw new IllegalStateException("The child JVM did not get ready: " + Files.readString(childLog));
			}
			Thread.sleep(5);
		}
		long startAt = System.currentTimeMillis() + 100;
		Path written = handshake.resolve(START + ".tmp");
		Files.writeString(written, Long.toString(startAt));
		Files.move(written, handshake.resolve(START), StandardCopyOption.ATOMIC_MOVE);
		return startAt;
	}

	static void run(int port, String key, int threads, Duration runTime, Path output, String jvm, StartTime startTime,
			LockProtocol protocol) throws InterruptedException, IOException {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factory.start();
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.builder().protocol(protocol).timestampUnit(TimestampUnit.MILLISECONDS).build());
		for (int i = 0; i < 200; i++) {
			LeasedLock warmUp = registry.obtain(key + ":warm-up:" + jvm);
			warmUp.lock();
			warmUp.unlock();
		}
		long untilStart = startTime.millis() - System.currentTimeMillis();
		if (untilStart > 0) {
			Thread.sleep(untilStart);
		}
		List<List<long[]>> records = new ArrayList<>();
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(threads);
		long end = System.nanoTime() + runTime.toNanos();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			List<long[]> mine = new ArrayList<>();
			records.add(mine);
			Thread worker = new Thread(() -> {
				try {
					LeasedLock lock = registry.obtain(key);
					while (System.nanoTime() - end < 0) {
						long asked = micros();
						lock.lock();
						long entered = micros();
						// A little work under the lock.
						long busyUntil = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(50);
						while (System.nanoTime() - busyUntil < 0) {
							Thread.onSpinWait();
						}
						long left = micros();
						lock.unlock();
						mine.add(new long[] { asked, entered, left });
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
				finally {
					done.countDown();
				}
			}, jvm + "-" + t);
			workers.add(worker);
		}
		workers.forEach(Thread::start);
		if (!done.await(runTime.toMillis() + 60_000, TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException(
					"Workers of JVM " + jvm + " did not finish within a minute of the run's end");
		}
		if (!failures.isEmpty()) {
			IllegalStateException failed = new IllegalStateException(
					failures.size() + " of " + threads + " workers of JVM " + jvm + " failed");
			failures.forEach(failed::addSuppressed);
			throw failed;
		}
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(output))) {
			for (int t = 0; t < records.size(); t++) {
				for (long[] record : records.get(t)) {
					out.println(jvm + " " + t + " " + record[0] + " " + record[1] + " " + record[2]);
				}
			}
		}
		registry.close();
		factory.destroy();
	}

	/** When the threads start (epoch ms), known once this JVM has warmed up. */
	@FunctionalInterface
	interface StartTime {

		long millis() throws IOException, InterruptedException;

	}

	private static long micros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

}
