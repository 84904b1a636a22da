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
 * The figures of one contended scenario.
 *
 * @param title what ran
 * @param twoJvms whether the threads were spread over two JVMs
 * @param rows one per contender that excludes, in the order of the first round
 * @author setnx-lock authors
 */
public record ContendedScenario(String title, boolean twoJvms, List<Row> rows) {

	static ContendedScenario of(String title, boolean twoJvms, Map<String, Rounds<ContendedWorkload.Result>> measured) {
		List<Row> rows = new ArrayList<>();
		measured.forEach((name, rounds) -> {
			List<ContendedWorkload.Result> runs = rounds.runs();
			double medianWait = rounds.median((run) -> run.waits().getValueAtPercentile(50) / 1e3);
			double worstWait = runs.stream().mapToDouble((run) -> run.waits().getMaxValue() / 1e3).max().orElse(0);
			rows.add(new Row(name, rounds.median(ContendedWorkload.Result::cyclesPerSecond), Median.of(rounds.ratios()),
					rounds.median((run) -> run.handoffs().getValueAtPercentile(50) / 1e3),
					rounds.median((run) -> run.handoffs().getValueAtPercentile(99) / 1e3), medianWait, worstWait / 1e3,
					worstWait / medianWait, rounds.median(ContendedWorkload.Result::sameThreadShare),
					rounds.median(ContendedWorkload.Result::crossJvmShare), Median.of(rounds.commands()),
					runs.stream().mapToLong(ContendedWorkload.Result::violations).sum(),
					runs.stream().mapToLong(ContendedWorkload.Result::errors).sum()));
		});
		return new ContendedScenario(title, twoJvms, rows);
	}

	/**
	 * Return the figures as a markdown table under a heading.
	 * @return the markdown
	 */
	public String table() {
		StringBuilder table = new StringBuilder("## ").append(this.title).append("\n\n");
		table.append("| contender | cycles/s | × floor | handoff p50 µs | handoff p99 µs | wait p50 µs "
				+ "| worst wait ms | worst / p50 wait | same thread again |"
				+ (this.twoJvms ? " cross-JVM handoffs |" : "") + " server commands/cycle | violations | errors |\n");
		table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" + (this.twoJvms ? " ---: |" : "")
				+ " ---: | ---: | ---: |\n");
		for (Row row : this.rows) {
			table.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %.0f | %.0f | %.0f | %.1f | %.0f | %.0f%% |",
					row.contender(), row.cyclesPerSecond(), row.ratioToFloor(), row.handoffP50Micros(),
					row.handoffP99Micros(), row.waitP50Micros(), row.worstWaitMillis(), row.worstToMedianWait(),
					row.sameThreadShare() * 100));
			if (this.twoJvms) {
				table.append(String.format(Locale.ROOT, " %.1f%% |", row.crossJvmShare() * 100));
			}
			table.append(String.format(Locale.ROOT, " %.2f | %d | %d |%n", row.commandsPerCycle(), row.violations(),
					row.errors()));
		}
		table.append("\nShedLock and the raw floor only try once; here they retry after a 100 µs pause, "
				+ "which their waits include.");
		if (this.twoJvms) {
			table.append(" Times come from the wall clock of each JVM, in whole microseconds.");
		}
		table.append("\n");
		return table.toString();
	}

	/**
	 * One contender's figures with several threads on one key.
	 *
	 * @param contender the contender's name
	 * @param cyclesPerSecond median across rounds of acquisitions (each followed by a
	 * release) per second
	 * @param ratioToFloor median across rounds of acquisitions per second over the
	 * floor's
	 * @param handoffP50Micros median across rounds of the median handoff to another
	 * thread, in microseconds
	 * @param handoffP99Micros median across rounds of the 99th percentile handoff
	 * @param waitP50Micros median across rounds of the median wait in {@code lock()}
	 * @param worstWaitMillis the longest wait in {@code lock()} in all rounds, in
	 * milliseconds
	 * @param worstToMedianWait the longest wait over the median wait
	 * @param sameThreadShare median across rounds of the share of acquisitions by the
	 * thread that had just released the key
	 * @param crossJvmShare median across rounds of the share of handoffs from one JVM to
	 * the other; not a number in one JVM
	 * @param commandsPerCycle median across rounds of the commands the server ran per
	 * acquisition, calls inside scripts and failed attempts included
	 * @param violations mutual-exclusion violations in all rounds
	 * @param errors failed or stuck workers in all rounds
	 */
	public record Row(String contender, double cyclesPerSecond, double ratioToFloor, double handoffP50Micros,
			double handoffP99Micros, double waitP50Micros, double worstWaitMillis, double worstToMedianWait,
			double sameThreadShare, double crossJvmShare, double commandsPerCycle, long violations, long errors) {

	}

}
