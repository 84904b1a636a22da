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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real Redis server for one test class, on a free loopback port, that the test can
 * stop, pause and restart to inject faults.
 * <p>
 * {@link #start(String...)} chooses how the server runs from the system property
 * {@code setnx.lock.test.redis} (or the environment variable
 * {@code SETNX_LOCK_TEST_REDIS}): {@code process} (the default) starts a
 * {@code redis-server} process of this machine (see {@link RedisBinary} for which one);
 * {@code testcontainers} starts a {@code redis:7.4} container through Testcontainers, for
 * machines with Docker. Either way the server keeps nothing on disk, so a restart comes
 * back empty, like a Redis without persistence after a crash.
 *
 * @author setnx-lock authors
 */
public interface RedisServer extends AutoCloseable {

	/**
	 * The system property that chooses how servers run.
	 */
	String MODE_PROPERTY = "setnx.lock.test.redis";

	/**
	 * Start a server.
	 * @param extraArguments further {@code redis-server} arguments, such as
	 * {@code "--cluster-enabled", "yes"}
	 * @return the running server
	 */
	static RedisServer start(String... extraArguments) {
		String mode = System.getProperty(MODE_PROPERTY,
				System.getenv().getOrDefault("SETNX_LOCK_TEST_REDIS", "process"));
		return switch (mode) {
			case "process" -> RedisProcess.start(RedisBinary.find(), List.of(extraArguments));
			case "testcontainers" -> RedisContainer.start(List.of(extraArguments));
			default -> throw new IllegalArgumentException(
					MODE_PROPERTY + " must be 'process' or 'testcontainers', but was '" + mode + "'");
		};
	}

	/**
	 * Return the host to connect to.
	 * @return the host, a loopback address
	 */
	String host();

	/**
	 * Return the port to connect to.
	 * @return the port
	 */
	int port();

	/**
	 * Send one command and return its reply: a {@link String}, a {@link Long}, a
	 * {@link List} or {@code null}.
	 * @param command the command and its arguments
	 * @return the reply
	 * @throws RedisReplyException if Redis answers with an error
	 */
	Object execute(String... command);

	/**
	 * Return one section of {@code INFO}, such as {@code "cpu"} or
	 * {@code "commandstats"}, as its fields in the order given.
	 * @param section the section
	 * @return each field's value, by name
	 */
	default Map<String, String> info(String section) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : String.valueOf(execute("INFO", section)).split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
			}
		}
		return fields;
	}

	/**
	 * Return one figure of a command's line in {@code INFO commandstats}, such as
	 * {@code calls} in
	 * {@code cmdstat_delifeq:calls=5,usec=9,usec_per_call=1.80,rejected_calls=0,failed_calls=0}.
	 * @param command the command, in lower case
	 * @param figure the figure's name
	 * @return the figure; 0 for a command the server has not run since its statistics
	 * were reset
	 * @throws IllegalStateException if the command's line has no such figure
	 */
	default long commandStat(String command, String figure) {
		String line = info("commandstats").get("cmdstat_" + command);
		if (line == null) {
			return 0;
		}
		for (String field : line.split(",")) {
			String[] nameAndValue = field.split("=", 2);
			if (nameAndValue[0].equals(figure)) {
				return Long.parseLong(nameAndValue[1]);
			}
		}
		throw new IllegalStateException("No " + figure + " in the commandstats of " + command + ": '" + line + "'");
	}

	/**
	 * Return whether the server knows a command ({@code COMMAND INFO}).
	 * @param command the command
	 * @return whether it has the command
	 */
	default boolean hasCommand(String command) {
		return ((List<?>) execute("COMMAND", "INFO", command)).get(0) != null;
	}

	/**
	 * Kill the server at once, as a crash would: no shutdown, nothing saved. Clients see
	 * connections refused until {@link #restart()}.
	 */
	void stop();

	/**
	 * Freeze the server (SIGSTOP, or a paused container): connections stay open but
	 * nothing is answered until {@link #resume()}.
	 */
	void pause();

	/**
	 * Let a {@link #pause() paused} server go on.
	 */
	void resume();

	/**
	 * Start the server again on the same port, empty; kill it first if it runs.
	 */
	void restart();

	/**
	 * Stop the server for good and delete its files.
	 */
	@Override
	void close();

}
