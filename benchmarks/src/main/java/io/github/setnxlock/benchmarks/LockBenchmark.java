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
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
		if (ChildJvm.isChild(args)) {
			ChildJvm.serve(args);
			return;
		}
		Options options = Options.parse(args);
		if (options == null) {
			System.out.println(Options.usage());
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
		String caption = caption(options, servers);
		String namespace = Long.toHexString(System.nanoTime());
		List<Contender> contenders = Contenders.connect(redis.host(), ports, options.only(), namespace);
		try {
			out.printf("# setnx-lock benchmarks%n%n");
			out.printf("%s%n%n", caption);
			List<UncontendedScenario> uncontended = new ArrayList<>();
			uncontended.add(uncontended("Uncontended, 1 thread", 1, options, contenders, servers, out));
			uncontended.add(uncontended("Uncontended, " + MANY_THREADS + " threads on " + MANY_THREADS + " keys",
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
			uncontended.forEach((scenario) -> out.println(scenario.table()));
			contended.forEach((scenario) -> out.println(scenario.table()));
			if (annotation != null) {
				out.println(annotation.table());
			}
			Report report = new Report(uncontended, contended, annotation);
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

	private static String caption(Options options, List<RedisServer> servers) {
		Map<String, String> server = servers.get(0).info("server");
		String version = server.containsKey("valkey_version") ? "valkey-server " + server.get("valkey_version")
				: "redis-server " + server.getOrDefault("redis_version", "?");
		return String.format(Locale.ROOT,
				"%s; %s on loopback%s; Java %s on %d cores (%s %s); "
						+ "%d round(s) of %s s per contender after %s s of warm-up",
				LocalDate.now(), version, (servers.size() > 1) ? " (× " + servers.size() + " for Redlock)" : "",
				System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
				System.getProperty("os.name"), System.getProperty("os.arch"), options.rounds(),
				seconds(options.perRound()), seconds(options.warmUp()));
	}

	private static UncontendedScenario uncontended(String title, int threads, Options options,
			List<Contender> contenders, List<RedisServer> servers, PrintStream out) throws InterruptedException {
		return UncontendedScenario.of(title, Rounds.measure(title, options, contenders, servers, out,
				(contender, duration) -> Workload.timed(threads, threads, duration).run(contender)));
	}

	private static ContendedScenario contended(String title, boolean twoJvms, Options options, List<Contender> all,
			List<RedisServer> servers, PrintStream out, Rounds.Runner<ContendedWorkload.Result> runner)
			throws InterruptedException {
		// PING excludes nobody: there is nothing to hand off
		List<Contender> contenders = all.stream().filter(Contender::excludes).toList();
		return ContendedScenario.of(title, twoJvms, Rounds.measure(title, options, contenders, servers, out, runner));
	}

	private static String seconds(Duration duration) {
		return String.format(Locale.ROOT, "%.3g", duration.toNanos() / 1e9).replaceAll("\\.?0+$", "");
	}

}
