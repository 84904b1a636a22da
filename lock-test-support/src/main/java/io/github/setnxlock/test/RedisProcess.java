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

package io.github.setnxlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code redis-server} process on a free loopback port, with its own directory for its
 * log and any files it writes. A shutdown hook kills it if a test forgets to.
 *
 * @author setnx-lock authors
 */
final class RedisProcess implements RedisServer {

	static final String HOST = "127.0.0.1";

	private static final long READY_TIMEOUT_MILLIS = 15_000;

	private static final int PORT_ATTEMPTS = 5;

	private final Path binary;

	private final List<String> leadingArguments;

	private final List<String> extraArguments;

	private final Path directory;

	private final Thread killer = new Thread(this::kill, "redis-server-killer");

	private int port;

	private Process process;

	private RedisProcess(Path binary, List<String> leadingArguments, List<String> extraArguments, Path directory) {
		this.binary = binary;
		this.leadingArguments = leadingArguments;
		this.extraArguments = extraArguments;
		this.directory = directory;
	}

	static RedisProcess start(Path binary, List<String> extraArguments) {
		return start(binary, List.of(), extraArguments);
	}

	/**
	 * Start a process whose first arguments come before the port and the others:
	 * {@code redis-server} reads a configuration file only as its first argument, and
	 * Sentinel needs one.
	 */
	static RedisProcess start(Path binary, List<String> leadingArguments, List<String> extraArguments) {
		Path directory;
		try {
			directory = Files.createTempDirectory("setnx-lock-redis-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		RedisProcess server = new RedisProcess(binary, leadingArguments, extraArguments, directory);
		Runtime.getRuntime().addShutdownHook(server.killer);
		// Another process may take the free port between our probe and the server's bind.
		IllegalStateException failure = null;
		for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
			server.port = freePort();
			try {
				server.launch();
				return server;
			}
			catch (IllegalStateException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
				if (!server.log().contains("Address already in use")) {
					break;
				}
			}
		}
		server.close();
		throw failure;
	}

	private static int freePort() {
		return LoopbackPorts.free();
	}

	private synchronized void launch() {
		List<String> command = new ArrayList<>(List.of(this.binary.toString()));
		command.addAll(this.leadingArguments);
		command.addAll(List.of("--port", Integer.toString(this.port), "--bind", HOST, "--save", "", "--appendonly",
				"no", "--daemonize", "no", "--protected-mode", "no", "--dir", this.directory.toString(), "--logfile",
				""));
		command.addAll(this.extraArguments);
		try {
			Files.deleteIfExists(logFile());
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(logFile().toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run " + this.binary, ex);
		}
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MILLIS);
		while (true) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("redis-server exited with code " + this.process.exitValue()
						+ " on port " + this.port + ":\n" + log());
			}
			try {
				if ("PONG".equals(Resp.execute(HOST, this.port, 1000, "PING"))) {
					return;
				}
			}
			catch (RuntimeException ex) {
				// Not listening yet, or still loading.
			}
			if (System.nanoTime() - deadline > 0) {
				kill();
				throw new IllegalStateException("redis-server did not answer PING on port " + this.port + " within "
						+ READY_TIMEOUT_MILLIS + " ms:\n" + log());
			}
			sleep(10);
		}
	}

	private Path logFile() {
		return this.directory.resolve("redis.log");
	}

	String log() {
		try {
			return Files.readString(logFile(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	@Override
	public String host() {
		return HOST;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public Object execute(String... command) {
		return Resp.execute(HOST, this.port, 10_000, command);
	}

	@Override
	public synchronized void stop() {
		kill();
	}

	@Override
	public synchronized void pause() {
		signal("STOP");
	}

	@Override
	public synchronized void resume() {
		signal("CONT");
	}

	@Override
	public synchronized void restart() {
		kill();
		// The port is ours to take back: redis-server binds with SO_REUSEADDR.
		launch();
	}

	@Override
	public synchronized void close() {
		kill();
		try {
			Runtime.getRuntime().removeShutdownHook(this.killer);
		}
		catch (IllegalStateException ex) {
			// The JVM is already shutting down and runs the hook itself.
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is harmless.
		}
	}

	private synchronized void kill() {
		Process running = this.process;
		if (running != null && running.isAlive()) {
			running.destroyForcibly();
			try {
				if (!running.waitFor(10, TimeUnit.SECONDS)) {
					throw new IllegalStateException("redis-server on port " + this.port + " did not die");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while killing redis-server", ex);
			}
		}
	}

	private void signal(String signal) {
		Process running = this.process;
		if (running == null || !running.isAlive()) {
			throw new IllegalStateException("redis-server on port " + this.port + " is not running");
		}
		ProcessSignals.send(running, signal);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
		}
	}

	@Override
	public String toString() {
		return "redis-server " + this.binary + " on " + HOST + ":" + this.port;
	}

}
