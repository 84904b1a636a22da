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
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The fixture's own promises: free ports, faults that behave like the real thing, and a
 * restart that comes back empty on the same port.
 *
 * @author setnx-lock authors
 */
class RedisServerTests {

	@Test
	void twoServersGetTheirOwnPortsAndData() {
		try (RedisServer one = RedisServer.start(); RedisServer two = RedisServer.start()) {
			assertThat(one.port()).isNotEqualTo(two.port()).isNotEqualTo(6379);
			assertThat(one.execute("SET", "k", "one")).isEqualTo("OK");
			assertThat(two.execute("GET", "k")).isNull();
			assertThat(one.execute("GET", "k")).isEqualTo("one");
			assertThat(one.execute("INCR", "n")).isEqualTo(1L);
			assertThat(one.execute("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
		}
	}

	@Test
	void infoCommandStatisticsAndCommandsAreReadFromTheServer() {
		try (RedisServer server = RedisServer.start()) {
			assertThat(server.info("server")).containsKey("redis_version").doesNotContainKey("# Server");
			server.execute("CONFIG", "RESETSTAT");
			assertThat(server.commandStat("set", "calls")).isZero();
			server.execute("SET", "k", "v");
			server.execute("SET", "k", "w");
			assertThat(server.commandStat("set", "calls")).isEqualTo(2);
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> server.commandStat("set", "no_such_figure"))
				.withMessageContaining("no_such_figure");
			assertThat(server.hasCommand("GET")).isTrue();
			assertThat(server.hasCommand("NOSUCHCOMMAND")).isFalse();
		}
	}

	@Test
	void errorsComeBackAsExceptions() {
		try (RedisServer server = RedisServer.start()) {
			server.execute("HSET", "h", "f", "v");
			assertThatExceptionOfType(RedisReplyException.class).isThrownBy(() -> server.execute("GET", "h"))
				.withMessageContaining("WRONGTYPE");
		}
	}

	@Test
	void stopRefusesConnectionsAndRestartComesBackEmptyOnTheSamePort() {
		try (RedisServer server = RedisServer.start()) {
			int port = server.port();
			server.execute("SET", "k", "v");
			server.stop();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> server.execute("PING"));
			server.restart();
			assertThat(server.port()).isEqualTo(port);
			assertThat(server.execute("GET", "k")).isNull();
		}
	}

	@Test
	void pauseKeepsConnectionsOpenButAnswersNothingUntilResumed() throws Exception {
		try (RedisServer server = RedisServer.start()) {
			server.pause();
			CompletableFuture<Object> reply;
			try (Socket socket = new Socket(server.host(), server.port())) {
				// The kernel still accepts the connection of a stopped process.
				assertThat(socket.isConnected()).isTrue();
			}
			reply = CompletableFuture.supplyAsync(() -> server.execute("PING"));
			Thread.sleep(300);
			assertThat(reply).isNotDone();
			server.resume();
			assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo("PONG");
		}
	}

	@Test
	void extraArgumentsReachTheServer() {
		try (RedisServer cluster = RedisServer.start("--cluster-enabled", "yes")) {
			assertThat(cluster.execute("CLUSTER", "KEYSLOT", "foo")).isEqualTo(12182L);
		}
	}

	@Test
	void theBundledBinaryRuns() throws IOException {
		Path bundled = RedisBinary.bundled();
		assertThat(Files.isExecutable(bundled)).isTrue();
		RedisProcess server = RedisProcess.start(bundled, List.of());
		try {
			assertThat(server.execute("PING")).isEqualTo("PONG");
			assertThat((String) server.execute("INFO", "server")).contains("redis_version:6.2");
		}
		finally {
			server.close();
		}
	}

}
