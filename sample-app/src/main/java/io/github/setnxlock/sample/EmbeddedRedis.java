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

package io.github.setnxlock.sample;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * A {@code redis-server} process of the sample's own, on a free loopback port, keeping
 * nothing on disk. It runs the {@code redis-server} on the {@code PATH} when there is
 * one, else the binary that {@code com.github.codemonstur:embedded-redis} ships for this
 * platform, so a machine with only a JDK can run the sample.
 *
 * @author setnx-lock authors
 */
final class EmbeddedRedis implements AutoCloseable {

	private static final String HOST = "127.0.0.1";

	/**
	 * How many free ports to try: another process may bind the port between the probe
	 * that found it free and the server's own bind.
	 */
	private static final int ATTEMPTS = 3;

	private final RedisServer server;

	private final Path binary;

	private final int port;

	private EmbeddedRedis(RedisServer server, Path binary, int port) {
		this.server = server;
		this.binary = binary;
		this.port = port;
	}

	/**
	 * Start a server and wait until it accepts connections.
	 * @return the running server
	 * @throws IllegalStateException if no server could be started
	 */
	static EmbeddedRedis start() {
		Path binary = binary();
		IllegalStateException failure = new IllegalStateException(
				"Could not start " + binary + " on a free port of " + HOST + " in " + ATTEMPTS + " attempts");
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port = freePort();
			try {
				RedisServer server = RedisServer.newRedisServer()
					.executableProvider(binary::toFile)
					.bind(HOST)
					.port(port)
					// Nothing on disk: the process runs in the binary's folder, which may
					// not be ours to write to, and a restarted sample starts empty.
					.setting("save \"\"")
					.setting("appendonly no")
					.build();
				server.start();
				return new EmbeddedRedis(server, binary, port);
			}
			catch (IOException ex) {
				failure.addSuppressed(ex);
			}
		}
		throw failure;
	}

	private static Path binary() {
		return onPath().orElseGet(EmbeddedRedis::bundled);
	}

	private static Optional<Path> onPath() {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		return Stream.of(path.split(File.pathSeparator))
			.filter((directory) -> !directory.isBlank())
			.map((directory) -> Path.of(directory, "redis-server"))
			.filter(Files::isExecutable)
			.findFirst();
	}

	private static Path bundled() {
		try {
			File file = ExecutableProvider.newJarResourceProvider().get();
			if (!file.canExecute() && !file.setExecutable(true)) {
				throw new IllegalStateException("The redis-server that embedded-redis ships, extracted to " + file
						+ ", cannot be made executable");
			}
			return file.toPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					"There is no redis-server on the PATH, and the one that embedded-redis ships could not be extracted",
					ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free port on " + HOST, ex);
		}
	}

	/**
	 * Return the host to connect to.
	 * @return a loopback address
	 */
	String host() {
		return HOST;
	}

	/**
	 * Return the port to connect to.
	 * @return the port the server listens on
	 */
	int port() {
		return this.port;
	}

	/**
	 * Stop the server and wait for its process to end.
	 */
	@Override
	public void close() {
		try {
			this.server.stop();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not stop " + this, ex);
		}
	}

	@Override
	public String toString() {
		return "redis-server " + this.binary + " on " + HOST + ":" + this.port;
	}

}
