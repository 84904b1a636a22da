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
package io.github.setnxlock.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.github.setnxlock.test.ProcessSignals;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Integration's leader election on the bridge, in two processes: exactly one leads
 * and keeps leading, and when the leader's process is frozen (SIGSTOP, as a long pause
 * would) past its lease the other takes over (the time it took is printed; a timing
 * belongs in a benchmark, not in an assertion); the frozen one, once it runs again, finds
 * it lost the role and gives it up. The processes' leases count on the machine's cores,
 * so the class runs alone among the classes that share them.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class LeaderElectionAcrossProcessesTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/**
	 * Long enough that a loaded machine, running other test classes beside this one, does
	 * not starve a leader's renewals past it.
	 */
	private static final Duration LEASE = Duration.ofSeconds(4);

	private final List<Process> processes = new ArrayList<>();

	private final List<Path> logs = new ArrayList<>();

	@AfterEach
	void stopWorkers() {
		for (Process process : this.processes) {
			try {
				ProcessSignals.resume(process);
			}
			catch (IllegalStateException ex) {
				// Ended already.
			}
			process.destroyForcibly();
		}
	}

	@Test
	void oneOfTwoProcessesLeadsAndTheOtherTakesOverWhenTheLeaderIsFrozen(@TempDir Path directory) throws Exception {
		String role = "role-" + UUID.randomUUID();
		for (int i = 0; i < 2; i++) {
			start(directory, i, role);
		}
		for (int i = 0; i < 2; i++) {
			int worker = i;
			await().atMost(Duration.ofSeconds(60)).until(() -> count(worker, "READY") == 1);
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> count(0, "GRANTED") + count(1, "GRANTED") == 1);
		int leader = (count(0, "GRANTED") == 1) ? 0 : 1;
		int other = 1 - leader;
		// Several leases later the leader still leads, and the other never did.
		Thread.sleep(LEASE.multipliedBy(3).toMillis());
		assertThat(count(leader, "REVOKED")).isZero();
		assertThat(count(other, "GRANTED")).isZero();
		assertThat(redis.server().execute("EXISTS", "lock:" + role)).isEqualTo(1L);
		ProcessSignals.pause(this.processes.get(leader));
		long frozenAt = System.nanoTime();
		await().atMost(Duration.ofSeconds(20)).until(() -> count(other, "GRANTED") == 1);
		Duration takeover = Duration.ofNanos(System.nanoTime() - frozenAt);
		System.out.println("Leader frozen: the other process led after " + takeover.toMillis() + " ms (lease "
				+ LEASE.toMillis() + " ms)");
		ProcessSignals.resume(this.processes.get(leader));
		await().atMost(Duration.ofSeconds(20)).until(() -> count(leader, "REVOKED") == 1);
		Thread.sleep(LEASE.toMillis());
		// The new leader keeps the role; the old one does not take it back.
		assertThat(count(other, "REVOKED")).isZero();
		assertThat(count(leader, "GRANTED")).isEqualTo(1);
	}

	private void start(Path directory, int index, String role) throws IOException {
		Path log = directory.resolve("leader-" + index + ".log");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
				System.getProperty("java.class.path"), LeaderWorker.class.getName(), "port=" + server().port(),
				"role=" + role, "leaseMs=" + LEASE.toMillis())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		this.processes.add(process);
		this.logs.add(log);
	}

	private long count(int index, String line) {
		try {
			return Files.readAllLines(this.logs.get(index)).stream().filter(line::equals).count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static RedisServer server() {
		return redis.server();
	}

}
