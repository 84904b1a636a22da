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

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How the benchmark runs, from its command line.
 *
 * @param rounds how many measured rounds
 * @param perRound how long each contender runs in each round
 * @param warmUp how long each contender runs unmeasured before its first round
 * @param only parts of the names of the contenders to run; empty for all
 * @param seed the seed of the shuffle of the rounds after the first
 * @param chart where the chart is written
 * @author setnx-lock authors
 */
public record Options(int rounds, Duration perRound, Duration warmUp, List<String> only, long seed, Path chart) {

	/**
	 * Parse command-line options.
	 * @param args the arguments
	 * @return the options, or {@code null} when help was asked for
	 */
	public static Options parse(String... args) {
		int rounds = 5;
		Duration perRound = Duration.ofSeconds(10);
		Duration warmUp = Duration.ofSeconds(5);
		List<String> only = List.of();
		long seed = 7;
		Path chart = Path.of("setnx-lock-benchmarks.svg");
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			switch (arg) {
				case "--short" -> {
					rounds = 3;
					perRound = Duration.ofSeconds(2);
					warmUp = Duration.ofSeconds(1);
				}
				case "--rounds" -> rounds = Integer.parseInt(value(args, ++i, arg));
				case "--seconds" -> perRound = duration(value(args, ++i, arg));
				case "--warmup" -> warmUp = duration(value(args, ++i, arg));
				case "--only" -> only = List.of(value(args, ++i, arg).split(","));
				case "--seed" -> seed = Long.parseLong(value(args, ++i, arg));
				case "--chart" -> chart = Path.of(value(args, ++i, arg));
				case "--help", "-h" -> {
					return null;
				}
				default -> throw new IllegalArgumentException("Unknown option '" + arg + "'\n" + usage());
			}
		}
		if (rounds < 1) {
			throw new IllegalArgumentException("--rounds must be at least 1, but was " + rounds);
		}
		return new Options(rounds, perRound, warmUp, only, seed, chart);
	}

	static String usage() {
		return "Usage: java -jar setnx-lock-benchmarks.jar [--short] [--rounds N] [--seconds S] [--warmup S] "
				+ "[--only name,name] [--seed N] [--chart file.svg]\nContenders: "
				+ String.join(", ", Contenders.names());
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
