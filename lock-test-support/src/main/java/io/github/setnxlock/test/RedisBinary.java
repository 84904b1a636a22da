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

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import redis.embedded.core.ExecutableProvider;

/**
 * Finds the {@code redis-server} binary the tests run, in this order:
 * <ol>
 * <li>the path in the system property {@code setnx.lock.test.redis-server} or the
 * environment variable {@code SETNX_LOCK_REDIS_SERVER};</li>
 * <li>{@code redis-server} on the {@code PATH};</li>
 * <li>the Linux or macOS binary bundled in {@code com.github.codemonstur:embedded-redis},
 * extracted to a temporary file, so a machine with only a JDK can run the tests.</li>
 * </ol>
 *
 * @author setnx-lock authors
 */
public final class RedisBinary {

	/**
	 * The system property that names a {@code redis-server} binary.
	 */
	public static final String BINARY_PROPERTY = "setnx.lock.test.redis-server";

	/**
	 * The system property that names a Valkey server binary (9.0 or later), for the tests
	 * of what only Valkey offers; {@code .ci/install-valkey} installs one.
	 */
	public static final String VALKEY_PROPERTY = "setnx.lock.test.valkey-server";

	/**
	 * The system property that names a {@code redis-server} binary of Redis 8.4 or later,
	 * for the tests of {@code DELEX}; {@code .ci/install-server redis} installs one.
	 */
	public static final String REDIS8_PROPERTY = "setnx.lock.test.redis8-server";

	private static volatile Path found;

	private RedisBinary() {
	}

	/**
	 * Return the binary to run, searching once per JVM.
	 * @return the path of an executable {@code redis-server}
	 */
	public static Path find() {
		Path binary = found;
		if (binary == null) {
			synchronized (RedisBinary.class) {
				binary = found;
				if (binary == null) {
					binary = search();
					found = binary;
				}
			}
		}
		return binary;
	}

	private static Path search() {
		return named(BINARY_PROPERTY, "SETNX_LOCK_REDIS_SERVER").or(() -> onPath("redis-server"))
			.orElseGet(RedisBinary::bundled);
	}

	/**
	 * Return the Valkey server to run, if this machine has one: the path in the system
	 * property {@code setnx.lock.test.valkey-server} or the environment variable
	 * {@code SETNX_LOCK_VALKEY_SERVER}, else {@code valkey-server} on the {@code PATH}.
	 * @return the path of an executable {@code valkey-server}, or empty
	 * @throws IllegalStateException if the property names a file that is not executable
	 */
	public static Optional<Path> valkey() {
		return named(VALKEY_PROPERTY, "SETNX_LOCK_VALKEY_SERVER").or(() -> onPath("valkey-server"));
	}

	/**
	 * Return the Redis 8.4 (or later) server to run, if this machine has one: the path in
	 * the system property {@code setnx.lock.test.redis8-server} or the environment
	 * variable {@code SETNX_LOCK_REDIS8_SERVER}. The {@code redis-server} on the
	 * {@code PATH} is not looked at: it is the one every other test runs.
	 * @return the path of an executable {@code redis-server}, or empty
	 * @throws IllegalStateException if the property names a file that is not executable
	 */
	public static Optional<Path> redis8() {
		return named(REDIS8_PROPERTY, "SETNX_LOCK_REDIS8_SERVER");
	}

	private static Optional<Path> named(String property, String variable) {
		String named = System.getProperty(property, System.getenv(variable));
		if (named == null || named.isBlank()) {
			return Optional.empty();
		}
		Path path = Path.of(named);
		if (!Files.isExecutable(path)) {
			throw new IllegalStateException(
					property + " (or " + variable + ") names '" + named + "', which is not executable");
		}
		return Optional.of(path);
	}

	private static Optional<Path> onPath(String name) {
		String pathVariable = System.getenv("PATH");
		if (pathVariable != null) {
			for (String directory : pathVariable.split(File.pathSeparator)) {
				if (!directory.isEmpty()) {
					Path candidate = Path.of(directory, name);
					if (Files.isExecutable(candidate)) {
						return Optional.of(candidate);
					}
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * Return the binary bundled in embedded-redis, extracted for this JVM.
	 * @return the extracted binary
	 */
	public static Path bundled() {
		try {
			File file = ExecutableProvider.newJarResourceProvider().get();
			if (!file.canExecute() && !file.setExecutable(true)) {
				throw new IllegalStateException("Could not make the bundled redis-server " + file + " executable");
			}
			return file.toPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No redis-server on the PATH, and the one bundled in embedded-redis"
					+ " could not be extracted; set " + BINARY_PROPERTY + " to a redis-server binary", ex);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("No redis-server on the PATH, and embedded-redis bundles none for "
					+ System.getProperty("os.name") + "/" + System.getProperty("os.arch") + "; set " + BINARY_PROPERTY
					+ " to a redis-server binary", ex);
		}
	}

}
