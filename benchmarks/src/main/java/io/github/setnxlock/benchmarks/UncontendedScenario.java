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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one uncontended scenario.
 *
 * @param title what ran
 * @param rows one per contender, in the order of the first round
 * @author setnx-lock authors
 */
public record UncontendedScenario(String title, List<Row> rows) {

	static UncontendedScenario of(String title, Map<String, Rounds<Workload.Result>> measured) {
		List<Row> rows = new ArrayList<>();
		measured.forEach((name, rounds) -> rows.add(new Row(name, rounds.median(Workload.Result::cyclesPerSecond),
				Median.of(rounds.ratios()), rounds.median((run) -> run.latency().getValueAtPercentile(50) / 1e3),
				rounds.median((run) -> run.latency().getValueAtPercentile(99) / 1e3), Median.of(rounds.commands()),
				Median.of(rounds.serverCpu()), Median.of(rounds.clientCpu()),
				rounds.runs().stream().mapToLong(Workload.Result::violations).sum(),
				rounds.runs().stream().mapToLong(Workload.Result::errors).sum())));
		return new UncontendedScenario(title, rows);
	}

	/**
	 * Return the figures as a markdown table under a heading.
	 * @return the markdown
	 */
	public String table() {
		StringBuilder table = new StringBuilder("## ").append(this.title).append("\n\n");
		table.append("| contender | cycles/s | × floor | p50 µs | p99 µs | server commands/cycle "
				+ "| server CPU µs/cycle | client CPU µs/cycle | violations | errors |\n");
		table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Row row : this.rows) {
			table.append(String.format(Locale.ROOT,
					"| %s | %,.0f | %.2f | %.0f | %.0f | %.2f | %.1f | %.1f | %d | %d |%n", row.contender(),
					row.cyclesPerSecond(), row.ratioToFloor(), row.p50Micros(), row.p99Micros(), row.commandsPerCycle(),
					row.serverCpuMicrosPerCycle(), row.clientCpuMicrosPerCycle(), row.violations(), row.errors()));
		}
		return table.toString();
	}

	/**
	 * One contender's figures.
	 *
	 * @param contender the contender's name
	 * @param cyclesPerSecond median across rounds of acquire+release cycles per second
	 * @param ratioToFloor median across rounds of cycles per second over the floor's
	 * @param p50Micros median across rounds of the median cycle time, in microseconds
	 * @param p99Micros median across rounds of the 99th percentile cycle time
	 * @param commandsPerCycle median across rounds of the commands the server ran per
	 * cycle, calls inside scripts included
	 * @param serverCpuMicrosPerCycle median across rounds of the CPU time the server used
	 * per cycle (from {@code INFO cpu}), in microseconds
	 * @param clientCpuMicrosPerCycle median across rounds of the CPU time this JVM used
	 * per cycle, in microseconds; the workload's own threads included, which cost every
	 * contender the same
	 * @param violations mutual-exclusion violations in all rounds
	 * @param errors failed or stuck workers in all rounds
	 */
	public record Row(String contender, double cyclesPerSecond, double ratioToFloor, double p50Micros, double p99Micros,
			double commandsPerCycle, double serverCpuMicrosPerCycle, double clientCpuMicrosPerCycle, long violations,
			long errors) {

	}

}
