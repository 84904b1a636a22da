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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.setnxlock.SideBySide;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two JVMs, four threads each, and one JVM with eight threads, on one lock key, in both
 * protocols (side by side, each on a server of its own): the merged history of their
 * critical sections never overlaps, and every thread of both JVMs gets the lock (a worker
 * that failed fails its JVM's run). The figures of the run (cycles per second, handoff
 * time, share of handoffs that cross JVMs, worst and median wait) are printed for the
 * record, not asserted: timings belong to the benchmarks.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class CrossJvmHandoffTests {

	private static final Duration RUN = Duration.ofSeconds(3);

	@Test
	void twoJvmsNeverHoldTogetherAndBothGetTheLock(@TempDir Path directory) throws Exception {
		SideBySide.run(List.of(LockProtocol.values()), (protocol) -> {
			Path run = Files.createDirectories(directory.resolve(protocol.name()));
			try (RedisServer server = RedisServer.start()) {
				Path childOutput = run.resolve("child.txt");
				Path ownOutput = run.resolve("own.txt");
				Path childLog = run.resolve("child.log");
				String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
				Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
						HandoffHarness.class.getName(), Integer.toString(server.port()), "handoff", "4",
						Long.toString(RUN.toMillis()), childOutput.toString(), "B", protocol.name(), run.toString())
					.redirectErrorStream(true)
					.redirectOutput(childLog.toFile())
					.start();
				try {
					HandoffHarness.run(server.port(), "handoff", 4, RUN, ownOutput, "A",
							() -> HandoffHarness.startTimeOnceReady(run, child, childLog), protocol);
					assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
				}
				finally {
					child.destroyForcibly();
				}
				assertThat(child.exitValue()).as(Files.readString(childLog)).isZero();
				List<Entry> history = read(ownOutput, childOutput);
				Figures figures = check(protocol + ", 2 JVMs x 4 threads", history);
				assertThat(figures.threads()).as("threads that entered")
					.containsExactlyInAnyOrder("A-0", "A-1", "A-2", "A-3", "B-0", "B-1", "B-2", "B-3");
			}
		});
	}

	@Test
	void eightThreadsOfOneJvmNeverHoldTogether(@TempDir Path directory) throws Exception {
		SideBySide.run(List.of(LockProtocol.values()), (protocol) -> {
			try (RedisServer server = RedisServer.start()) {
				Path output = directory.resolve(protocol.name() + ".txt");
				HandoffHarness.run(server.port(), "handoff", 8, RUN, output, "A", () -> 0, protocol);
				Figures figures = check(protocol + ", 1 JVM x 8 threads", read(output));
				assertThat(figures.threads()).as("threads that entered")
					.containsExactlyInAnyOrder("A-0", "A-1", "A-2", "A-3", "A-4", "A-5", "A-6", "A-7");
			}
		});
	}

	private static List<Entry> read(Path... outputs) throws IOException {
		List<Entry> history = new ArrayList<>();
		for (Path output : outputs) {
			for (String line : Files.readAllLines(output)) {
				String[] fields = line.split(" ");
				history.add(new Entry(fields[0] + "-" + fields[1], Long.parseLong(fields[2]), Long.parseLong(fields[3]),
						Long.parseLong(fields[4])));
			}
		}
		history.sort(Comparator.comparingLong(Entry::entered));
		return history;
	}

	/**
	 * Check that no two critical sections overlapped, and print the run's figures.
	 */
	private static Figures check(String run, List<Entry> history) {
		int overlaps = 0;
		int crossings = 0;
		List<Long> handoffs = new ArrayList<>();
		for (int i = 1; i < history.size(); i++) {
			Entry before = history.get(i - 1);
			Entry after = history.get(i);
			if (after.entered() < before.left()) {
				overlaps++;
			}
			handoffs.add(after.entered() - before.left());
			if (!after.jvm().equals(before.jvm())) {
				crossings++;
			}
		}
		List<Long> waits = history.stream().map((entry) -> entry.entered() - entry.asked()).sorted().toList();
		handoffs.sort(Long::compare);
		System.out.printf(
				"handoff run (%s): %d entries in %s (%.0f/s); handoff p50 %d us, p99 %d us;"
						+ " %.1f%% of handoffs cross JVMs; wait p50 %d us, worst %d us (%.1fx median)%n",
				run, history.size(), RUN, history.size() / (double) RUN.toSeconds(), percentile(handoffs, 50),
				percentile(handoffs, 99), 100.0 * crossings / Math.max(1, history.size() - 1), percentile(waits, 50),
				waits.get(waits.size() - 1), waits.get(waits.size() - 1) / (double) Math.max(1, percentile(waits, 50)));
		assertThat(overlaps).as("critical sections that overlapped").isZero();
		assertThat(history).isNotEmpty();
		return new Figures(history);
	}

	private static long percentile(List<Long> sorted, int percent) {
		return sorted.get(Math.min(sorted.size() - 1, sorted.size() * percent / 100));
	}

	/**
	 * A critical section of one thread ({@code <jvm>-<index>}).
	 */
	record Entry(String thread, long asked, long entered, long left) {

		String jvm() {
			return this.thread.substring(0, this.thread.indexOf('-'));
		}

	}

	record Figures(List<Entry> history) {

		Set<String> threads() {
			return this.history.stream().map(Entry::thread).collect(Collectors.toSet());
		}

	}

}
