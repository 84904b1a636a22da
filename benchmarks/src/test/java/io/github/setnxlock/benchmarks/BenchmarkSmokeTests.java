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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.setnxlock.test.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Keeps the benchmark runnable in the default build, in seconds: every contender runs a
 * few hundred cycles uncontended and contended (4 and 8 threads on one key, and 2 JVMs ×
 * 4 threads) against real {@code redis-server}s (one, or five for the Redlock ones), and
 * the harness prints its tables from a run far too short to mean anything.
 *
 * @author setnx-lock authors
 */
class BenchmarkSmokeTests {

	private static RedisServer redis;

	// the main server first; the Redlock contenders lock on the first 3 or all 5
	private static final List<RedisServer> servers = new ArrayList<>();

	// shared with the child JVM of the two-JVM test, which must contend for the same keys
	private static final String NAMESPACE = "smoke" + Long.toHexString(System.nanoTime());

	private static List<Contender> contenders;

	@BeforeAll
	static void connect() {
		for (int i = 0; i < RedlockContenders.LARGE; i++) {
			servers.add(RedisServer.start());
		}
		redis = servers.get(0);
		contenders = Contenders.connect(redis.host(), ports(), List.of(), NAMESPACE);
	}

	private static List<Integer> ports() {
		return servers.stream().map(RedisServer::port).toList();
	}

	@AfterAll
	static void close() {
		if (contenders != null) {
			contenders.forEach(Contender::close);
		}
		servers.forEach(RedisServer::close);
	}

	@Test
	void everyContenderThatAppliesToTheServerIsConnected() {
		boolean nativeRelease = redis.hasCommand("DELIFEQ") || redis.hasCommand("DELEX");
		assertThat(contenders).extracting(Contender::name)
			.containsExactlyElementsOf(Contenders.names()
				.stream()
				.filter((name) -> nativeRelease || !name.equals(Contenders.SCRIPT_RELEASE))
				.toList());
	}

	@Test
	void redlockContendersNeedTheirServersAndAreLeftOutWithOne() {
		assertThat(Contenders.serversNeeded(List.of())).isEqualTo(5);
		assertThat(Contenders.serversNeeded(List.of("token", "raw"))).isEqualTo(1);
		assertThat(Contenders.serversNeeded(List.of("redlock 3"))).isEqualTo(3);
		assertThat(Contenders.connect(redis.host(), redis.port(), List.of("redlock"), NAMESPACE)).isEmpty();
		assertThat(contenders).filteredOn((contender) -> contender.nodes() > 1)
			.extracting(Contender::name, Contender::nodes)
			.containsExactly(tuple("setnx-lock Redlock 3 nodes", 3), tuple("setnx-lock Redlock 5 nodes", 5),
					tuple("Redisson RedLock 3 nodes", 3), tuple("Redisson RedLock 5 nodes", 5));
	}

	@Test
	void whenUncontendedThenEveryContenderCompletesItsCycles() throws InterruptedException {
		for (Contender contender : contenders) {
			Workload.Result result = Workload.cycles(2, 2, 100).run(contender);
			assertThat(result.firstError()).as(contender.name()).isNull();
			assertThat(result.cycles()).as(contender.name()).isEqualTo(200);
			assertThat(result.violations()).as(contender.name()).isZero();
			assertThat(result.latency().getTotalCount()).as(contender.name()).isEqualTo(200);
		}
	}

	@Test
	void whenContendedThenNoContenderLetsTwoHoldOneKey() throws InterruptedException {
		for (Contender contender : contenders) {
			if (contender.excludes()) {
				Workload.Result result = Workload.cycles(4, 1, 50).run(contender);
				assertThat(result.firstError()).as(contender.name()).isNull();
				assertThat(result.cycles()).as(contender.name()).isEqualTo(200);
				assertThat(result.violations()).as(contender.name()).isZero();
			}
		}
	}

	@Test
	void whenEightThreadsContendForOneKeyThenEveryLockHandsItOverAndExcludes() throws InterruptedException {
		for (Contender contender : contenders) {
			if (contender.excludes()) {
				ContendedWorkload.Result result = ContendedWorkload.cycles(8, 25).run(contender);
				assertThat(result.firstError()).as(contender.name()).isNull();
				assertThat(result.errors()).as(contender.name()).isZero();
				assertThat(result.violations()).as(contender.name()).isZero();
				assertThat(result.cycles()).as(contender.name()).isEqualTo(200);
				assertThat(result.cyclesPerSecond()).as(contender.name()).isPositive();
				assertThat(result.waits().getTotalCount()).as(contender.name()).isEqualTo(200);
				assertThat(result.waits().getMaxValue()).as(contender.name()).isPositive();
				// whoever finishes its cycles first leaves the key to the others, so at
				// least 7 acquisitions follow another thread's release
				assertThat(result.handoffs().getTotalCount()).as(contender.name()).isGreaterThanOrEqualTo(7);
				assertThat(result.handoffs().getValueAtPercentile(50)).as(contender.name()).isPositive();
				assertThat(result.sameThreadAgain() + result.handoffs().getTotalCount()).as(contender.name())
					.isEqualTo(199);
			}
		}
	}

	@Test
	void whenTwoJvmsContendForOneKeyThenEveryLockHandsItAcrossAndExcludes() throws InterruptedException {
		try (TwoJvms jvms = TwoJvms.start(redis.host(), ports(), NAMESPACE)) {
			for (Contender contender : contenders) {
				if (contender.excludes()) {
					ContendedWorkload.Result result = jvms.run(contender, 4, null, 10);
					assertThat(result.firstError()).as(contender.name()).isNull();
					assertThat(result.errors()).as(contender.name()).isZero();
					assertThat(result.violations()).as(contender.name()).isZero();
					assertThat(result.cycles()).as(contender.name()).isEqualTo(80);
					assertThat(result.cyclesPerSecond()).as(contender.name()).isPositive();
					assertThat(result.waits().getMaxValue()).as(contender.name()).isPositive();
					// both JVMs take the key, so at least once it passes from one to the
					// other
					assertThat(result.crossJvmHandoffs()).as(contender.name()).isPositive();
					assertThat(result.handoffs().getValueAtPercentile(50)).as(contender.name()).isPositive();
				}
			}
		}
	}

	@Test
	void harnessPrintsATableForEachScenarioAndDrawsTheChart(@TempDir Path directory) throws Exception {
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		Path chart = directory.resolve("chart.svg");
		Report report = LockBenchmark.run(
				Options.parse("--rounds", "2", "--seconds", "0.05", "--warmup", "0", "--only",
						"token,raw,ping,redlock 3", "--chart", chart.toString()),
				new PrintStream(printed, true, StandardCharsets.UTF_8));
		List<UncontendedScenario> scenarios = report.uncontended();
		assertThat(scenarios).hasSize(2);
		for (UncontendedScenario scenario : scenarios) {
			// "token" also picks the script-release row on a server with DELIFEQ, and the
			// asynchronous one.
			assertThat(scenario.rows()).extracting(UncontendedScenario.Row::contender)
				.filteredOn((name) -> !name.equals(Contenders.SCRIPT_RELEASE))
				.containsExactly("setnx-lock token", AsyncContenders.SETNX_LOCK_ASYNC, Contenders.FLOOR,
						"PING round trip", "setnx-lock Redlock 3 nodes", "Redisson RedLock 3 nodes");
			assertThat(scenario.rows()).allSatisfy((row) -> {
				assertThat(row.errors()).isZero();
				assertThat(row.violations()).isZero();
				assertThat(row.cyclesPerSecond()).isPositive();
				assertThat(row.serverCpuMicrosPerCycle()).isPositive();
				assertThat(row.clientCpuMicrosPerCycle()).isPositive();
			});
			// The INFO calls that take the counts are not counted: a PING is one command.
			assertThat(scenario.rows()).filteredOn((row) -> row.contender().equals("PING round trip"))
				.singleElement()
				.satisfies((row) -> assertThat(row.commandsPerCycle()).isEqualTo(1.0));
			// counted on all three nodes: at least a SET and a release on each
			assertThat(scenario.rows()).filteredOn((row) -> row.contender().equals("setnx-lock Redlock 3 nodes"))
				.singleElement()
				.satisfies((row) -> assertThat(row.commandsPerCycle()).isGreaterThanOrEqualTo(6.0));
		}
		assertThat(report.contended()).extracting(ContendedScenario::twoJvms).containsExactly(false, true);
		for (ContendedScenario scenario : report.contended()) {
			// PING excludes nobody, so it has no contended row
			assertThat(scenario.rows()).extracting(ContendedScenario.Row::contender)
				.filteredOn((name) -> !name.equals(Contenders.SCRIPT_RELEASE))
				.containsExactly("setnx-lock token", AsyncContenders.SETNX_LOCK_ASYNC, Contenders.FLOOR,
						"setnx-lock Redlock 3 nodes", "Redisson RedLock 3 nodes");
			assertThat(scenario.rows()).allSatisfy((row) -> {
				assertThat(row.errors()).isZero();
				assertThat(row.violations()).isZero();
				assertThat(row.cyclesPerSecond()).isPositive();
				assertThat(row.worstWaitMillis()).isPositive();
			});
		}
		assertThat(report.annotation()).isNotNull();
		assertThat(report.annotation().direct()).hasSize(2).allSatisfy((run) -> assertThat(run.calls()).isPositive());
		assertThat(report.annotation().annotated()).hasSize(2)
			.allSatisfy((run) -> assertThat(run.calls()).isPositive());
		assertThat(report.annotation().violations()).isZero();
		assertThat(report.failed()).isFalse();
		assertThat(Files.readString(chart)).startsWith("<svg")
			.contains("setnx-lock token")
			.contains("handoff p50")
			.endsWith("</svg>\n");
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("## Annotation path")
			.contains("## Uncontended, 1 thread")
			.contains("## Uncontended, 8 threads on 8 keys")
			.contains("## Contended, 8 threads on one key, one JVM")
			.contains("## Contended, 2 JVMs × 4 threads on one key")
			.contains("| " + Contenders.FLOOR + " |");
	}

	@Test
	void shortModeRunsThreeRoundsOfTwoSeconds() {
		Options options = Options.parse("--short");
		assertThat(options.rounds()).isEqualTo(3);
		assertThat(options.perRound()).hasSeconds(2);
	}

	@Test
	void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
		assertThat(Median.of(new double[] { 4, 1, 3, 2 })).isEqualTo(2.5);
		assertThat(Median.of(new double[] { 5, 1, 3 })).isEqualTo(3);
	}

}
