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

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

import io.github.setnxlock.test.RedisServer;

/**
 * Acquire+release of every {@link Contenders contender} against one {@code redis-server}
 * this program starts itself: uncontended with 1 thread on 1 key and with 8 threads on 8
 * keys (one each), then contended on one key (every contender but the {@code PING}
 * baseline) by 8 threads of this JVM, and by 4 threads of this JVM and 4 of a child JVM
 * ({@link TwoJvms}). Each cycle is {@code lock()} then {@code unlock()} with nothing in
 * between, so what is measured is the locks' own cost: round trips, scripts, client
 * overhead and, when contended, how the lock passes from one holder to the next.
 * <p>
 * Contenders run interleaved in rounds (the first round in a fixed order, the others
 * shuffled) so that drift of the machine, such as another build starting, hits all of
 * them alike; each contender first runs once unmeasured, right before its first round.
 * The tables show, per contender, the median across rounds of cycles per second, of the
 * median and 99th percentile time of one cycle, of the commands the server ran per cycle
 * (from {@code INFO commandstats}: background work such as renewals counts, and so does
 * every {@code redis.call} inside a script, so the floor shows 4), of the CPU time the
 * server and this JVM used per cycle (the server's from {@code INFO cpu}; this JVM's from
 * its process CPU time, the workload's threads included), and of its cycles per second
 * divided by the raw floor's in the same round. With 8 threads on 2 cores the CPU times
 * say where a contender's cycles go when the machine, not the network, is the limit. The
 * floor is {@code SET key token NX PX 30000} plus an {@code EVALSHA} compare-and-delete
 * on one Lettuce connection: the least a lock that checks ownership on release can do; a
 * {@code PING} round trip shows what one round trip costs.
 * <p>
 * The Redlock contenders ({@link RedlockContenders}) lock on 3 or 5 servers: the main one
 * and as many more that this program starts beside it, each a separate
 * {@code redis-server} on loopback. Their commands and server CPU time are those of all
 * the servers they lock on, added up; against the single-server rows, their cycle times
 * show what waiting for a majority of nodes costs.
 * <p>
 * The contended table shows, per contender, the median across rounds of acquisitions per
 * second and its ratio to the floor's, of the median and 99th percentile handoff (from
 * the moment a holder is about to call {@code unlock()} to the moment another thread's
 * {@code lock()} returns), of the median wait (from calling {@code lock()} to its return)
 * and of the share of acquisitions made by the thread that had just released (barging),
 * and with two JVMs of the share of handoffs from one JVM to the other; then the worst
 * wait of all rounds and its ratio to the median wait, the commands per acquisition and
 * the violations. The contenders that only try once (ShedLock and the floor) retry after
 * a pause of 100 µs, so their waits include it.
 * <p>
 * Run it from the repository's root with: <pre>
 * ./mvnw -B -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/setnx-lock-benchmarks-0.1.0-SNAPSHOT.jar --short
 * </pre> Options: {@code --rounds N} (default 5), {@code --seconds S} per contender and
 * round (default 10, decimals allowed), {@code --warmup S} (default 5), {@code --short}
 * (3 rounds of 2 s after 1 s of warm-up: about five minutes), {@code --only a,b}
 * (contenders whose names contain one of these), {@code --seed N} (the shuffle of the
 * rounds), {@code --chart file.svg} (where the chart goes; default
 * {@code setnx-lock-benchmarks.svg}).
 * <p>
 * The server is the tests' ({@code io.github.setnxlock.test.RedisBinary}): the
 * {@code redis-server} on the {@code PATH} unless {@code SETNX_LOCK_REDIS_SERVER} names
 * another, such as the Valkey 9 or the Redis 8.6 that {@code .ci/install-server valkey}
 * or {@code redis} installs, on which setnx-lock's token protocol releases with
 * {@code DELIFEQ} or {@code DELEX}.
 * <p>
 * When a setnx-lock contender runs, the run ends with the annotation path
 * ({@link AnnotationPath}) in as many rounds, and then draws the headline figures as an
 * SVG ({@link Chart}).
 *
 * @author setnx-lock authors
 */
public final class LockBenchmark {

	private static final int MANY_THREADS = 8;

	private static final int CONTENDING_THREADS = 8;

	private LockBenchmark() {
	}

	/**
	 * Run the benchmark and print its tables on standard output.
	 * @param args the options
	 * @throws Exception if the benchmark cannot run
	 */
	public static void main(String[] args) throws Exception {
		if (args.length == 4 && args[0].equals(TwoJvms.CHILD_OPTION)) {
			TwoJvms.child(args[1], Arrays.stream(args[2].split(",")).map(Integer::valueOf).toList(), args[3]);
			return;
		}
		Options options = Options.parse(args);
		if (options == null) {
			System.out.println(usage());
			return;
		}
		Report report = run(options, System.out);
		System.exit(report.failed() ? 1 : 0);
	}

	/**
	 * Run the benchmark with the given options.
	 * @param options the options
	 * @param out where progress and the tables are printed
	 * @return the summary of each scenario
	 * @throws InterruptedException if interrupted
	 */
	public static Report run(Options options, PrintStream out) throws InterruptedException {
		List<RedisServer> servers = new ArrayList<>();
		try {
			// the Redlock contenders need servers of their own beside the main one
			for (int i = Contenders.serversNeeded(options.only()); i > 0; i--) {
				servers.add(RedisServer.start());
			}
			return run(options, out, servers);
		}
		finally {
			servers.forEach(RedisServer::close);
		}
	}

	private static Report run(Options options, PrintStream out, List<RedisServer> servers) throws InterruptedException {
		RedisServer redis = servers.get(0);
		List<Integer> ports = servers.stream().map(RedisServer::port).toList();
		Map<String, String> server = redis.info("server");
		String version = server.containsKey("valkey_version") ? "valkey-server " + server.get("valkey_version")
				: "redis-server " + server.getOrDefault("redis_version", "?");
		String namespace = Long.toHexString(System.nanoTime());
		List<Contender> contenders = Contenders.connect(redis.host(), ports, options.only(), namespace);
		try {
			out.printf("# setnx-lock benchmarks%n%n");
			String caption = String.format(Locale.ROOT,
					"%s; %s on loopback%s; Java %s on %d cores (%s %s); "
							+ "%d round(s) of %s s per contender after %s s of warm-up",
					LocalDate.now(), version, (servers.size() > 1) ? " (× " + servers.size() + " for Redlock)" : "",
					System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
					System.getProperty("os.name"), System.getProperty("os.arch"), options.rounds(),
					seconds(options.perRound()), seconds(options.warmUp()));
			out.printf("%s%n%n", caption);
			List<Scenario> scenarios = new ArrayList<>();
			scenarios.add(scenario("Uncontended, 1 thread", 1, options, contenders, servers, out));
			scenarios.add(scenario("Uncontended, " + MANY_THREADS + " threads on " + MANY_THREADS + " keys",
					MANY_THREADS, options, contenders, servers, out));
			List<ContendedScenario> contended = new ArrayList<>();
			contended.add(contended("Contended, " + CONTENDING_THREADS + " threads on one key, one JVM", false, options,
					contenders, servers, out,
					(contender, duration) -> ContendedWorkload.timed(CONTENDING_THREADS, duration).run(contender)));
			try (TwoJvms jvms = TwoJvms.start(redis.host(), ports, namespace)) {
				contended.add(contended("Contended, 2 JVMs × " + CONTENDING_THREADS / 2 + " threads on one key", true,
						options, contenders, servers, out, (contender, duration) -> jvms.run(contender,
								CONTENDING_THREADS / 2, duration, Long.MAX_VALUE)));
			}
			AnnotationPath.Result annotation = null;
			if (contenders.stream().anyMatch((contender) -> contender.name().startsWith("setnx-lock"))) {
				out.printf("Annotation path:");
				try (AnnotationPath path = new AnnotationPath(redis.host(), redis.port(), namespace)) {
					annotation = path.run(options.rounds(), options.perRound(), options.warmUp(), options.seed());
				}
				out.println();
			}
			for (Scenario scenario : scenarios) {
				out.println(scenario.table());
			}
			contended.forEach((scenario) -> out.println(scenario.table()));
			if (annotation != null) {
				out.println(annotation.table());
			}
			Report report = new Report(scenarios, contended, annotation);
			try {
				Files.writeString(options.chart(), Chart.svg(report, caption));
				out.printf("Chart: %s%n", options.chart().toAbsolutePath());
			}
			catch (IOException ex) {
				out.printf("Could not write the chart to %s: %s%n", options.chart(), ex);
			}
			return report;
		}
		finally {
			contenders.forEach(Contender::close);
		}
	}

	private static Scenario scenario(String title, int threads, Options options, List<Contender> contenders,
			List<RedisServer> servers, PrintStream out) throws InterruptedException {
		Map<String, Rounds<Workload.Result>> measured = rounds(title, options, contenders, servers, out,
				(contender, duration) -> Workload.timed(threads, threads, duration).run(contender));
		List<Row> rows = new ArrayList<>();
		measured.forEach((name,
				rounds) -> rows.add(new Row(name, rounds.median(Workload.Result::cyclesPerSecond),
						median(rounds.ratios()), rounds.median((run) -> run.latency().getValueAtPercentile(50) / 1e3),
						rounds.median((run) -> run.latency().getValueAtPercentile(99) / 1e3), median(rounds.commands()),
						median(rounds.serverCpu()), median(rounds.clientCpu()),
						rounds.runs().stream().mapToLong(Workload.Result::violations).sum(),
						rounds.runs().stream().mapToLong(Workload.Result::errors).sum())));
		return new Scenario(title, rows);
	}

	private static ContendedScenario contended(String title, boolean twoJvms, Options options, List<Contender> all,
			List<RedisServer> servers, PrintStream out, Runner<ContendedWorkload.Result> runner)
			throws InterruptedException {
		// PING excludes nobody: there is nothing to hand off
		List<Contender> contenders = all.stream().filter(Contender::excludes).toList();
		Map<String, Rounds<ContendedWorkload.Result>> measured = rounds(title, options, contenders, servers, out,
				runner);
		List<ContendedRow> rows = new ArrayList<>();
		measured.forEach((name, rounds) -> {
			List<ContendedWorkload.Result> runs = rounds.runs();
			double medianWait = rounds.median((run) -> run.waits().getValueAtPercentile(50) / 1e3);
			double worstWait = runs.stream().mapToDouble((run) -> run.waits().getMaxValue() / 1e3).max().orElse(0);
			rows.add(new ContendedRow(name, rounds.median(ContendedWorkload.Result::cyclesPerSecond),
					median(rounds.ratios()), rounds.median((run) -> run.handoffs().getValueAtPercentile(50) / 1e3),
					rounds.median((run) -> run.handoffs().getValueAtPercentile(99) / 1e3), medianWait, worstWait / 1e3,
					worstWait / medianWait, rounds.median(ContendedWorkload.Result::sameThreadShare),
					rounds.median(ContendedWorkload.Result::crossJvmShare), median(rounds.commands()),
					runs.stream().mapToLong(ContendedWorkload.Result::violations).sum(),
					runs.stream().mapToLong(ContendedWorkload.Result::errors).sum()));
		});
		return new ContendedScenario(title, twoJvms, rows);
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
	 * @return per contender, in the order given, its runs and figures of each round
	 * @throws InterruptedException if interrupted
	 */
	private static <R extends Outcome> Map<String, Rounds<R>> rounds(String title, Options options,
			List<Contender> contenders, List<RedisServer> servers, PrintStream out, Runner<R> runner)
			throws InterruptedException {
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
				List<RedisServer> nodes = servers.subList(0, contender.nodes());
				long before = totalCommands(nodes);
				double serverCpuBefore = serverCpuMicros(nodes);
				long clientCpuBefore = clientCpuNanos();
				R result = runner.run(contender, options.perRound());
				long clientCpuUsed = clientCpuNanos() - clientCpuBefore;
				double serverCpuUsed = serverCpuMicros(nodes) - serverCpuBefore;
				// minus, on each server, the INFO that took the first count and the two
				// of
				// the CPU times
				long used = totalCommands(nodes) - before - 3L * nodes.size();
				Rounds<R> rounds = measured.get(contender.name());
				rounds.runs().add(result);
				rounds.commands().add(perCycle(used, result.cycles()));
				rounds.serverCpu().add(perCycle(serverCpuUsed, result.cycles()));
				rounds.clientCpu().add(perCycle(clientCpuUsed / 1e3, result.cycles()));
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

	/**
	 * One contender's runs in a scenario, and per round the commands the server ran per
	 * cycle, the server's and this JVM's CPU time per cycle in microseconds, and the
	 * ratio of its cycles per second to the floor's.
	 *
	 * @param <R> what one run reports
	 * @param runs the runs, one per round
	 * @param commands the commands per cycle
	 * @param serverCpu the server's CPU time per cycle
	 * @param clientCpu this JVM's CPU time per cycle
	 * @param ratios the ratios to the floor
	 */
	private record Rounds<R>(List<R> runs, List<Double> commands, List<Double> serverCpu, List<Double> clientCpu,
			List<Double> ratios) {

		Rounds() {
			this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
		}

		double median(ToDoubleFunction<R> figure) {
			return LockBenchmark.median(this.runs.stream().mapToDouble(figure).toArray());
		}

	}

	/**
	 * One timed run of a contender.
	 *
	 * @param <R> what the run reports
	 */
	private interface Runner<R extends Outcome> {

		R run(Contender contender, Duration duration) throws InterruptedException;

	}

	static double median(List<Double> values) {
		return median(values.stream().mapToDouble(Double::doubleValue).toArray());
	}

	static double median(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static double perCycle(double used, long cycles) {
		return (cycles > 0 && used >= 0) ? used / cycles : Double.NaN;
	}

	/**
	 * Return the CPU time the servers have used, user and system, as {@code INFO cpu}
	 * reports it, added up.
	 * @param servers the servers
	 * @return the CPU time in microseconds
	 */
	private static double serverCpuMicros(List<RedisServer> servers) {
		double total = 0;
		for (RedisServer redis : servers) {
			Map<String, String> cpu = redis.info("cpu");
			total += (Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"))) * 1e6;
		}
		return total;
	}

	/**
	 * Return the CPU time this JVM has used, every thread of it: the contender's client,
	 * its event loops and the workload's own threads.
	 * @return the CPU time in nanoseconds, or {@code -1} where the JVM cannot tell
	 */
	private static long clientCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
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

	private static String seconds(Duration duration) {
		return String.format(Locale.ROOT, "%.3g", duration.toNanos() / 1e9).replaceAll("\\.?0+$", "");
	}

	private static String usage() {
		return "Usage: java -jar setnx-lock-benchmarks.jar [--short] [--rounds N] [--seconds S] [--warmup S] "
				+ "[--only name,name] [--seed N] [--chart file.svg]\nContenders: "
				+ String.join(", ", Contenders.names());
	}

	/**
	 * How the benchmark runs.
	 *
	 * @param rounds how many measured rounds
	 * @param perRound how long each contender runs in each round
	 * @param warmUp how long each contender runs unmeasured before its first round
	 * @param only parts of the names of the contenders to run; empty for all
	 * @param seed the seed of the shuffle of the rounds after the first
	 * @param chart where the chart is written
	 */
	public record Options(int rounds, Duration perRound, Duration warmUp, List<String> only, long seed, Path chart) {

		/**
		 * Parse command-line options.
		 * @param args the arguments
		 * @return the options, or {@code null} when help was asked for
		 */
		public static Options parse(String... args) {
			Options options = new Options(5, Duration.ofSeconds(10), Duration.ofSeconds(5), List.of(), 7,
					Path.of("setnx-lock-benchmarks.svg"));
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				switch (arg) {
					case "--short" -> options = new Options(3, Duration.ofSeconds(2), Duration.ofSeconds(1),
							options.only(), options.seed(), options.chart());
					case "--rounds" -> options = new Options(Integer.parseInt(value(args, ++i, arg)),
							options.perRound(), options.warmUp(), options.only(), options.seed(), options.chart());
					case "--seconds" -> options = new Options(options.rounds(), duration(value(args, ++i, arg)),
							options.warmUp(), options.only(), options.seed(), options.chart());
					case "--warmup" -> options = new Options(options.rounds(), options.perRound(),
							duration(value(args, ++i, arg)), options.only(), options.seed(), options.chart());
					case "--only" -> options = new Options(options.rounds(), options.perRound(), options.warmUp(),
							List.of(value(args, ++i, arg).split(",")), options.seed(), options.chart());
					case "--seed" -> options = new Options(options.rounds(), options.perRound(), options.warmUp(),
							options.only(), Long.parseLong(value(args, ++i, arg)), options.chart());
					case "--chart" -> options = new Options(options.rounds(), options.perRound(), options.warmUp(),
							options.only(), options.seed(), Path.of(value(args, ++i, arg)));
					case "--help", "-h" -> {
						return null;
					}
					default -> throw new IllegalArgumentException("Unknown option '" + arg + "'\n" + usage());
				}
			}
			if (options.rounds() < 1) {
				throw new IllegalArgumentException("--rounds must be at least 1, but was " + options.rounds());
			}
			return options;
		}

		private static String value(String[] args, int index, String option) {
			if (index >= args.length) {
				throw new IllegalArgumentException(option + " needs a value");
			}
			return args[index];
		}

		private static Duration duration(String seconds) {
			return Duration.ofNanos(Math.round(Double.parseDouble(seconds) * 1e9));
		}

	}

	/**
	 * One contender's figures in one scenario.
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
	public record ContendedRow(String contender, double cyclesPerSecond, double ratioToFloor, double handoffP50Micros,
			double handoffP99Micros, double waitP50Micros, double worstWaitMillis, double worstToMedianWait,
			double sameThreadShare, double crossJvmShare, double commandsPerCycle, long violations, long errors) {

	}

	/**
	 * The figures of the contended scenario.
	 *
	 * @param title what ran
	 * @param twoJvms whether the threads were spread over two JVMs
	 * @param rows one per contender that excludes, in the order of the first round
	 */
	public record ContendedScenario(String title, boolean twoJvms, List<ContendedRow> rows) {

		/**
		 * Return the figures as a markdown table under a heading.
		 * @return the markdown
		 */
		public String table() {
			StringBuilder table = new StringBuilder("## ").append(this.title).append("\n\n");
			table.append("| contender | cycles/s | × floor | handoff p50 µs | handoff p99 µs | wait p50 µs "
					+ "| worst wait ms | worst / p50 wait | same thread again |"
					+ (this.twoJvms ? " cross-JVM handoffs |" : "")
					+ " server commands/cycle | violations | errors |\n");
			table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
					+ (this.twoJvms ? " ---: |" : "") + " ---: | ---: | ---: |\n");
			for (ContendedRow row : this.rows) {
				table.append(
						String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %.0f | %.0f | %.0f | %.1f | %.0f | %.0f%% |",
								row.contender(), row.cyclesPerSecond(), row.ratioToFloor(), row.handoffP50Micros(),
								row.handoffP99Micros(), row.waitP50Micros(), row.worstWaitMillis(),
								row.worstToMedianWait(), row.sameThreadShare() * 100));
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

	}

	/**
	 * Everything one run measured.
	 *
	 * @param uncontended the uncontended scenarios
	 * @param contended the contended scenarios: one JVM, then two
	 * @param annotation the annotation path against the direct call, or {@code null} when
	 * the contenders run did not include setnx-lock
	 */
	public record Report(List<Scenario> uncontended, List<ContendedScenario> contended,
			AnnotationPath.Result annotation) {

		/**
		 * Whether any row saw an error or a mutual-exclusion violation.
		 * @return whether the run failed
		 */
		public boolean failed() {
			return this.uncontended.stream()
				.flatMap((scenario) -> scenario.rows().stream())
				.anyMatch((row) -> row.errors() > 0 || row.violations() > 0)
					|| this.contended.stream()
						.flatMap((scenario) -> scenario.rows().stream())
						.anyMatch((row) -> row.errors() > 0 || row.violations() > 0)
					|| (this.annotation != null && this.annotation.violations() > 0);
		}

	}

	/**
	 * The figures of one scenario.
	 *
	 * @param title what ran
	 * @param rows one per contender, in the order of the first round
	 */
	public record Scenario(String title, List<Row> rows) {

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
						row.cyclesPerSecond(), row.ratioToFloor(), row.p50Micros(), row.p99Micros(),
						row.commandsPerCycle(), row.serverCpuMicrosPerCycle(), row.clientCpuMicrosPerCycle(),
						row.violations(), row.errors()));
			}
			return table.toString();
		}

	}

}
