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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.setnxlock.benchmarks.StampedWorkers.Acquisition;
import io.github.setnxlock.benchmarks.StampedWorkers.Stamps;

/**
 * The child JVM of {@link TwoJvms}, and the protocol between the two. The child is
 * started with {@link #arguments its arguments}: the servers and the parent's key
 * namespace. It reads one command a line on its standard input: {@code connect} a
 * contender by name, {@code run} one as a {@link Run} says and write its acquisitions to
 * the file the run names, or {@code quit}; it answers each but the last with a line that
 * starts with {@link #DONE}, the count of its failed workers and its first failure.
 *
 * @author setnx-lock authors
 */
final class ChildJvm {

	/**
	 * The start of the child's answer to a command; anything else it prints on its
	 * standard output (a library's banner, say) is not an answer.
	 */
	static final String DONE = "setnx-lock-benchmark:done";

	static final String QUIT = "quit";

	private static final String OPTION = "--contend-as-child";

	private static final String CONNECT = "connect";

	private static final String RUN = "run";

	private ChildJvm() {
	}

	static List<String> arguments(String host, List<Integer> ports, String namespace) {
		return List.of(OPTION, host, ports.stream().map(String::valueOf).collect(Collectors.joining(",")), namespace);
	}

	static boolean isChild(String[] args) {
		return args.length == 4 && args[0].equals(OPTION);
	}

	/**
	 * Run as the child: connect contenders and run them as told on standard input until
	 * told to quit.
	 * @param args the {@link #arguments arguments} the parent started it with
	 * @throws Exception if the child cannot run
	 */
	static void serve(String[] args) throws Exception {
		String host = args[1];
		List<Integer> ports = Arrays.stream(args[2].split(",")).map(Integer::valueOf).toList();
		String namespace = args[3];
		Map<String, Contender> contenders = new HashMap<>();
		try {
			BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = input.readLine()) != null && !line.equals(QUIT)) {
				String[] fields = line.split("\t");
				if (fields[0].equals(CONNECT)) {
					String name = fields[1];
					contenders.put(name,
							Contenders.connect(host, ports, List.of(name), namespace)
								.stream()
								.filter((contender) -> contender.name().equals(name))
								.findFirst()
								.orElseThrow());
					System.out.println(done(0, null));
				}
				else if (fields[0].equals(RUN)) {
					Run run = Run.parse(fields);
					Stamps stamps = StampedWorkers.run(contenders.get(run.contender()), run, 1);
					write(stamps.acquisitions(), run.file());
					System.out.println(done(stamps.errors(), stamps.firstError()));
				}
			}
		}
		finally {
			contenders.values().forEach(Contender::close);
		}
	}

	static String connect(String contender) {
		return CONNECT + "\t" + contender;
	}

	private static String done(long errors, Throwable firstError) {
		String error = (firstError != null) ? "\t" + String.valueOf(firstError).replaceAll("[\\r\\n\\t]+", " ") : "";
		return DONE + "\t" + errors + error;
	}

	private static void write(List<Acquisition> acquisitions, Path file) throws IOException {
		StringBuilder written = new StringBuilder();
		for (Acquisition acquisition : acquisitions) {
			written.append(acquisition.jvm())
				.append(' ')
				.append(acquisition.thread())
				.append(' ')
				.append(acquisition.called())
				.append(' ')
				.append(acquisition.entered())
				.append(' ')
				.append(acquisition.left())
				.append('\n');
		}
		Files.writeString(file, written, StandardCharsets.UTF_8);
	}

	static List<Acquisition> read(Path file) throws IOException {
		List<Acquisition> acquisitions = new ArrayList<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			long[] fields = Arrays.stream(line.split(" ")).mapToLong(Long::parseLong).toArray();
			acquisitions.add(new Acquisition(fields[0], fields[1], fields[2], fields[3], fields[4]));
		}
		return acquisitions;
	}

	/**
	 * One run of a contender, the same in both JVMs.
	 *
	 * @param key the key both JVMs contend for
	 * @param threads how many threads in each JVM
	 * @param startMicros when the threads start, in microseconds of the wall clock
	 * @param duration how long, or {@code null} to stop on acquisitions alone
	 * @param cyclesPerThread how many acquisitions each thread makes at most
	 * @param file where the child writes its acquisitions
	 * @param contender the contender's name
	 */
	record Run(String key, int threads, long startMicros, Duration duration, long cyclesPerThread, Path file,
			String contender) {

		String command() {
			return String.join("\t", RUN, this.key, String.valueOf(this.threads), String.valueOf(this.startMicros),
					String.valueOf((this.duration != null) ? this.duration.toNanos() : -1),
					String.valueOf(this.cyclesPerThread), this.file.toString(), this.contender);
		}

		static Run parse(String[] fields) {
			long nanos = Long.parseLong(fields[4]);
			return new Run(fields[1], Integer.parseInt(fields[2]), Long.parseLong(fields[3]),
					(nanos >= 0) ? Duration.ofNanos(nanos) : null, Long.parseLong(fields[5]), Path.of(fields[6]),
					fields[7]);
		}

	}

	/**
	 * The child's answer to a command.
	 *
	 * @param errors its workers that failed or got stuck
	 * @param firstError its first failure on one line, or {@code null}
	 */
	record Reply(long errors, String firstError) {

		static Reply parse(String line) {
			String[] fields = line.split("\t", 3);
			return new Reply(Long.parseLong(fields[1]), (fields.length > 2) ? fields[2] : null);
		}

	}

}
