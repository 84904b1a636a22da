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

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;

/**
 * Contention for one key from two JVMs: this one and a child JVM it starts with the same
 * classpath, which connects the same contenders under the same key namespace and runs
 * what it is told on its standard input. For each run both JVMs start their threads at an
 * agreed moment of the wall clock; each records, per acquisition, (jvm, thread, called,
 * entered, left) in microseconds of the wall clock, the child in a file, and this JVM
 * merges both into one timeline: handoffs, waits, overlaps (violations) and the share of
 * handoffs that cross from one JVM to the other. Both JVMs read the same system clock, so
 * their stamps compare to within its resolution.
 *
 * @author setnx-lock authors
 */
public final class TwoJvms implements AutoCloseable {

	/**
	 * The option that makes {@link LockBenchmark#main} run as the child.
	 */
	public static final String CHILD_OPTION = "--contend-as-child";

	private static final String DONE = "setnx-lock-benchmark:done";

	private static final AtomicLong RUNS = new AtomicLong();

	// Long enough for the child to read the command and start its threads, short enough
	// to add little to every run.
	private static final long START_DELAY_MICROS = TimeUnit.MILLISECONDS.toMicros(200);

	// A worker that has not finished this long after the deadline is stuck in the
	// contender: report it rather than wait forever.
	private static final Duration STUCK_AFTER = Duration.ofSeconds(60);

	private final Process child;

	private final BufferedWriter commands;

	private final BufferedReader replies;

	private final Set<String> connected = new HashSet<>();

	private TwoJvms(Process child) {
		this.child = child;
		this.commands = new BufferedWriter(new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8));
		this.replies = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
	}

	/**
	 * Start the child JVM.
	 * @param host the server's host
	 * @param port the server's port
	 * @param namespace the key namespace this JVM's contenders were connected with
	 * @return the pair of JVMs
	 */
	public static TwoJvms start(String host, int port, String namespace) {
		return start(host, List.of(port), namespace);
	}

	/**
	 * Start the child JVM, which connects its contenders to the same servers.
	 * @param host the servers' host
	 * @param ports the servers' ports, the main server's first
	 * @param namespace the key namespace this JVM's contenders were connected with
	 * @return the pair of JVMs
	 */
	public static TwoJvms start(String host, List<Integer> ports, String namespace) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// Run from the benchmark's jar, the launcher of that jar must load the classes;
		// run from a build tool, the classpath of this JVM has them.
		if (TwoJvms.class.getClassLoader().getClass().getName().startsWith("org.springframework.boot.loader")) {
			command.add("-jar");
			command.add(System.getProperty("java.class.path"));
		}
		else {
			command.add("-cp");
			command.add(System.getProperty("java.class.path"));
			command.add(LockBenchmark.class.getName());
		}
		command.addAll(List.of(CHILD_OPTION, host, ports.stream().map(String::valueOf).collect(Collectors.joining(",")),
				namespace));
		try {
			return new TwoJvms(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Run one contender in both JVMs, with the same number of threads in each, on a fresh
	 * key, until a time or a number of acquisitions per thread is reached.
	 * @param contender this JVM's contender; the child connects the one of the same name
	 * @param threadsPerJvm how many threads in each JVM
	 * @param duration how long, or {@code null} to stop on acquisitions alone
	 * @param cyclesPerThread how many acquisitions each thread makes at most
	 * @return the merged figures of both JVMs
	 * @throws InterruptedException if interrupted while waiting for the workers
	 */
	public ContendedWorkload.Result run(Contender contender, int threadsPerJvm, Duration duration, long cyclesPerThread)
			throws InterruptedException {
		String key = "twojvms" + RUNS.incrementAndGet();
		Path file = null;
		try {
			if (this.connected.add(contender.name())) {
				call("connect\t" + contender.name());
			}
			file = Files.createTempFile("setnx-lock-benchmark", ".events");
			long start = wallMicros() + START_DELAY_MICROS;
			send(String.join("\t", "run", key, String.valueOf(threadsPerJvm), String.valueOf(start),
					String.valueOf((duration != null) ? duration.toNanos() : -1), String.valueOf(cyclesPerThread),
					file.toString(), contender.name()));
			Local mine = runLocal(contender, key, 0, threadsPerJvm, start, duration, cyclesPerThread);
			String[] reply = awaitDone();
			List<long[]> events = new ArrayList<>(mine.events());
			for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
				String[] fields = line.split(" ");
				long[] event = new long[fields.length];
				for (int i = 0; i < fields.length; i++) {
					event[i] = Long.parseLong(fields[i]);
				}
				events.add(event);
			}
			long errors = mine.errors() + Long.parseLong(reply[1]);
			Throwable firstError = (mine.firstError() != null) ? mine.firstError()
					: (reply.length > 2) ? new IllegalStateException("Child JVM: " + reply[2]) : null;
			return merge(contender.name(), start, events, errors, firstError);
		}
		catch (IOException ex) {
			return merge(contender.name(), 0, List.of(), 1, ex);
		}
		finally {
			if (file != null) {
				try {
					Files.deleteIfExists(file);
				}
				catch (IOException ex) {
					// a temporary file left behind is harmless
				}
			}
		}
	}

	private static ContendedWorkload.Result merge(String contender, long start, List<long[]> events, long errors,
			Throwable firstError) {
		List<long[]> timeline = new ArrayList<>(events);
		timeline.sort(Comparator.comparingLong((long[] event) -> event[3]).thenComparingLong((event) -> event[4]));
		Histogram waits = new Histogram(3);
		Histogram handoffs = new Histogram(3);
		long violations = 0;
		long sameThread = 0;
		long crossJvm = 0;
		long latestLeft = Long.MIN_VALUE;
		long[] previous = null;
		for (long[] event : timeline) {
			waits.recordValue(Math.max(0, event[3] - event[2]) * 1000);
			if (previous != null) {
				// entered is stamped after lock() returned and left before unlock() was
				// called, so an acquisition that enters before an earlier one left
				// overlapped it
				if (event[3] < latestLeft) {
					violations++;
				}
				if (event[0] == previous[0] && event[1] == previous[1]) {
					sameThread++;
				}
				else {
					handoffs.recordValue(Math.max(0, event[3] - previous[4]) * 1000);
					if (event[0] != previous[0]) {
						crossJvm++;
					}
				}
			}
			latestLeft = Math.max(latestLeft, event[4]);
			previous = event;
		}
		long elapsedNanos = timeline.isEmpty() ? 1 : Math.max(1, (latestLeft - start) * 1000);
		return new ContendedWorkload.Result(contender, timeline.size(), elapsedNanos, waits, handoffs, sameThread,
				crossJvm, violations, errors, firstError);
	}

	private void send(String command) throws IOException {
		this.commands.write(command);
		this.commands.newLine();
		this.commands.flush();
	}

	private String[] call(String command) throws IOException {
		send(command);
		return awaitDone();
	}

	// Anything else the child prints on its standard output (a library's banner, say) is
	// skipped.
	private String[] awaitDone() throws IOException {
		String line;
		while ((line = this.replies.readLine()) != null) {
			if (line.startsWith(DONE)) {
				return line.split("\t", 3);
			}
		}
		throw new IOException("The child JVM ended with exit code " + waitFor());
	}

	private int waitFor() {
		try {
			return this.child.waitFor(10, TimeUnit.SECONDS) ? this.child.exitValue() : -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	/**
	 * Tell the child to close its contenders and end, and end it if it does not.
	 */
	@Override
	public void close() {
		try {
			send("quit");
		}
		catch (IOException ex) {
			// already gone
		}
		if (waitFor() == -1) {
			this.child.destroyForcibly();
		}
	}

	/**
	 * Run as the child: connect contenders and run them as told on standard input, one
	 * command a line, until told to quit.
	 * @param host the servers' host
	 * @param ports the servers' ports, the main server's first
	 * @param namespace the parent's key namespace
	 * @throws Exception if the child cannot run
	 */
	static void child(String host, List<Integer> ports, String namespace) throws Exception {
		Map<String, Contender> contenders = new HashMap<>();
		try {
			BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = input.readLine()) != null && !line.equals("quit")) {
				String[] fields = line.split("\t");
				if (fields[0].equals("connect")) {
					String name = fields[1];
					contenders.put(name,
							Contenders.connect(host, ports, List.of(name), namespace)
								.stream()
								.filter((contender) -> contender.name().equals(name))
								.findFirst()
								.orElseThrow());
					System.out.println(DONE + "\t0");
				}
				else if (fields[0].equals("run")) {
					long nanos = Long.parseLong(fields[4]);
					Local local = runLocal(contenders.get(fields[7]), fields[1], 1, Integer.parseInt(fields[2]),
							Long.parseLong(fields[3]), (nanos >= 0) ? Duration.ofNanos(nanos) : null,
							Long.parseLong(fields[5]));
					StringBuilder written = new StringBuilder();
					for (long[] event : local.events()) {
						written.append(event[0]);
						for (int i = 1; i < event.length; i++) {
							written.append(' ').append(event[i]);
						}
						written.append('\n');
					}
					Files.writeString(Path.of(fields[6]), written, StandardCharsets.UTF_8);
					String error = (local.firstError() != null)
							? "\t" + String.valueOf(local.firstError()).replaceAll("[\\r\\n\\t]+", " ") : "";
					System.out.println(DONE + "\t" + local.errors() + error);
				}
			}
		}
		finally {
			contenders.values().forEach(Contender::close);
		}
	}

	private static Local runLocal(Contender contender, String key, int jvm, int threads, long startMicros,
			Duration duration, long cyclesPerThread) throws InterruptedException {
		// One reading of the wall clock, then the monotonic clock from there: cheaper
		// than the wall clock per stamp, and never going back.
		long baseMicros = wallMicros();
		long baseNanos = System.nanoTime();
		long endMicros = (duration != null) ? startMicros + duration.toNanos() / 1000 : Long.MAX_VALUE;
		List<List<long[]>> perThread = new ArrayList<>();
		AtomicLong errors = new AtomicLong();
		AtomicReference<Throwable> firstError = new AtomicReference<>();
		CountDownLatch done = new CountDownLatch(threads);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int index = t;
			List<long[]> events = new ArrayList<>();
			perThread.add(events);
			Thread worker = new Thread(() -> {
				try {
					Contender.KeyLock lock = contender.lockFor(key);
					long wait;
					while ((wait = startMicros - micros(baseMicros, baseNanos)) > 0) {
						LockSupport.parkNanos(Math.min(wait * 1000, 1_000_000));
					}
					long count = 0;
					while (count < cyclesPerThread && micros(baseMicros, baseNanos) < endMicros) {
						long called = micros(baseMicros, baseNanos);
						lock.lock();
						long entered = micros(baseMicros, baseNanos);
						long left = micros(baseMicros, baseNanos);
						lock.unlock();
						events.add(new long[] { jvm, index, called, entered, left });
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
			}, contender.name() + " " + key + " jvm " + jvm + " worker " + t);
			worker.setDaemon(true);
			workers.add(worker);
			worker.start();
		}
		long untilEnd = Math.max(0, ((duration != null) ? startMicros + duration.toNanos() / 1000 : startMicros)
				- micros(baseMicros, baseNanos));
		if (!done.await(untilEnd / 1000 + STUCK_AFTER.toMillis(), TimeUnit.MILLISECONDS)) {
			for (Thread worker : workers) {
				if (worker.isAlive()) {
					errors.incrementAndGet();
					firstError.compareAndSet(null, new IllegalStateException(worker.getName() + " is stuck"));
					worker.interrupt();
				}
			}
			// the stuck workers may still add to their lists
			return new Local(List.of(), errors.get(), firstError.get());
		}
		List<long[]> all = new ArrayList<>();
		perThread.forEach(all::addAll);
		return new Local(all, errors.get(), firstError.get());
	}

	private static long micros(long baseMicros, long baseNanos) {
		return baseMicros + (System.nanoTime() - baseNanos) / 1000;
	}

	private static long wallMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

	private record Local(List<long[]> events, long errors, Throwable firstError) {

	}

}
