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

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

import io.github.setnxlock.test.RedisServer;

/**
 * One contender's runs in a scenario, one per round, and per round the commands the
 * servers ran per cycle, the servers' and this JVM's CPU time per cycle in microseconds,
 * and the ratio of its cycles per second to the floor's.
 *
 * @param <R> what one run reports
 * @param runs the runs, one per round
 * @param commands the commands per cycle
 * @param serverCpu the servers' CPU time per cycle
 * @param clientCpu this JVM's CPU time per cycle
 * @param ratios the ratios to the floor
 * @author setnx-lock authors
 */
record Rounds<R extends Outcome>(List<R> runs, List<Double> commands, List<Double> serverCpu, List<Double> clientCpu,
		List<Double> ratios) {

	Rounds() {
		this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
	}

	double median(ToDoubleFunction<R> figure) {
		return Median.of(this.runs.stream().mapToDouble(figure).toArray());
	}

	/**
	 * Run every contender once per round, interleaved: the first round in the given
	 * order, the others shuffled, each contender warmed up right before its first round
	 * (in every scenario: each runs other paths, such as waiting and waking up). Around
	 * each run it reads the command count and CPU time of the servers the contender locks
	 * on and this JVM's CPU time.
	 * @param <R> what one run reports
	 * @param title what runs, printed with the progress
	 * @param options the rounds, their length and the warm-up
	 * @param contenders the contenders
	 * @param servers the servers, the main one first
	 * @param out where the progress is printed
	 * @param runner one timed run of a contender
	 * @return per contender, in the order given, its rounds
	 * @throws InterruptedException if interrupted
	 */
	static <R extends Outcome> Map<String, Rounds<R>> measure(String title, Options options, List<Contender> contenders,
			List<RedisServer> servers, PrintStream out, Runner<R> runner) throws InterruptedException {
		out.printf("%s:", title);
		Map<String, Rounds<R>> measured = new LinkedHashMap<>();
		contenders.forEach((contender) -> measured.put(contender.name(), new Rounds<>()));
		Random random = new Random(options.seed());
		List<Contender> order = new ArrayList<>(contenders);
		for (int round = 1; round <= options.rounds(); round++) {
			if (round > 1) {
				Collections.shuffle(order, random);
			}
			out.printf(" round %d", round);
			Map<String, Double> perSecond = new LinkedHashMap<>();
			for (Contender contender : order) {
				if (round == 1 && !options.warmUp().isZero()) {
					runner.run(contender, options.warmUp());
				}
				R result = measured.get(contender.name())
					.add(runner, contender, options.perRound(), servers.subList(0, contender.nodes()));
				perSecond.put(contender.name(), result.cyclesPerSecond());
				if (result.firstError() != null) {
					out.printf("%n%s failed: %s%n", contender.name(), result.firstError());
				}
			}
			Double floor = perSecond.get(Contenders.FLOOR);
			perSecond.forEach(
					(name, value) -> measured.get(name).ratios().add((floor != null) ? value / floor : Double.NaN));
		}
		out.println();
		return measured;
	}

	private R add(Runner<R> runner, Contender contender, Duration duration, List<RedisServer> nodes)
			throws InterruptedException {
		long commandsBefore = totalCommands(nodes);
		double serverCpuBefore = serverCpuMicros(nodes);
		long clientCpuBefore = clientCpuNanos();
		R result = runner.run(contender, duration);
		long clientCpuUsed = clientCpuNanos() - clientCpuBefore;
		double serverCpuUsed = serverCpuMicros(nodes) - serverCpuBefore;
		// minus, on each server, the INFO that took the first count and the two of the
		// CPU times
		long commandsUsed = totalCommands(nodes) - commandsBefore - 3L * nodes.size();
		this.runs.add(result);
		this.commands.add(perCycle(commandsUsed, result.cycles()));
		this.serverCpu.add(perCycle(serverCpuUsed, result.cycles()));
		this.clientCpu.add(perCycle(clientCpuUsed / 1e3, result.cycles()));
		return result;
	}

	private static double perCycle(double used, long cycles) {
		return (cycles > 0 && used >= 0) ? used / cycles : Double.NaN;
	}

	private static long totalCommands(List<RedisServer> servers) {
		long total = 0;
		for (RedisServer redis : servers) {
			for (Map.Entry<String, String> entry : redis.info("commandstats").entrySet()) {
				if (entry.getKey().startsWith("cmdstat_")) {
					String calls = entry.getValue().split(",")[0];
					total += Long.parseLong(calls.substring(calls.indexOf('=') + 1));
				}
			}
		}
		return total;
	}

	// user and system, as INFO cpu reports them, in microseconds
	private static double serverCpuMicros(List<RedisServer> servers) {
		double total = 0;
		for (RedisServer redis : servers) {
			Map<String, String> cpu = redis.info("cpu");
			total += (Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"))) * 1e6;
		}
		return total;
	}

	// Every thread of this JVM: the contender's client, its event loops and the
	// workload's own threads; -1 where the JVM cannot tell.
	private static long clientCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

	/**
	 * One timed run of a contender.
	 *
	 * @param <R> what the run reports
	 */
	interface Runner<R extends Outcome> {

		R run(Contender contender, Duration duration) throws InterruptedException;

	}

}
