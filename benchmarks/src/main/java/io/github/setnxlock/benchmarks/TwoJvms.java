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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.setnxlock.benchmarks.StampedWorkers.Acquisition;
import io.github.setnxlock.benchmarks.StampedWorkers.Stamps;

/**
 * Contention for one key from two JVMs: this one and a {@link ChildJvm child JVM} it
 * starts with the same classpath, which connects the same contenders under the same key
 * namespace and runs what it is told. For each run both JVMs start their threads at an
 * agreed moment of the wall clock and stamp each acquisition ({@link StampedWorkers}),
 * the child into a file, and this JVM merges both into one {@link Timeline}.
 *
 * @author setnx-lock authors
 */
public final class TwoJvms implements AutoCloseable {

	private static final AtomicLong RUNS = new AtomicLong();

	// Long enough for the child to read the command and start its threads, short enough
	// to add little to every run.
	private static final long START_DELAY_MICROS = TimeUnit.MILLISECONDS.toMicros(200);

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
		command.addAll(ChildJvm.arguments(host, ports, namespace));
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
				send(ChildJvm.connect(contender.name()));
				awaitReply();
			}
			file = Files.createTempFile("setnx-lock-benchmark", ".events");
			ChildJvm.Run run = new ChildJvm.Run(key, threadsPerJvm, StampedWorkers.wallMicros() + START_DELAY_MICROS,
					duration, cyclesPerThread, file, contender.name());
			send(run.command());
			Stamps mine = StampedWorkers.run(contender, run, 0);
			ChildJvm.Reply reply = awaitReply();
			List<Acquisition> acquisitions = new ArrayList<>(mine.acquisitions());
			acquisitions.addAll(ChildJvm.read(file));
			Throwable firstError = (mine.firstError() != null) ? mine.firstError() : (reply.firstError() != null)
					? new IllegalStateException("Child JVM: " + reply.firstError()) : null;
			return Timeline.merge(contender.name(), run.startMicros(), acquisitions, mine.errors() + reply.errors(),
					firstError);
		}
		catch (IOException ex) {
			return Timeline.merge(contender.name(), 0, List.of(), 1, ex);
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

	private void send(String command) throws IOException {
		this.commands.write(command);
		this.commands.newLine();
		this.commands.flush();
	}

	private ChildJvm.Reply awaitReply() throws IOException {
		String line;
		while ((line = this.replies.readLine()) != null) {
			if (line.startsWith(ChildJvm.DONE)) {
				return ChildJvm.Reply.parse(line);
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
			send(ChildJvm.QUIT);
		}
		catch (IOException ex) {
			// already gone
		}
		if (waitFor() == -1) {
			this.child.destroyForcibly();
		}
	}

}
