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

package io.github.setnxlock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.test.ProcessSignals;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A run of several {@link HistoryWorker} processes against one Redis for the locks (or
 * several independent ones, under Redlock) and another for the {@link Witness}, which the
 * test may fault while it runs: pause a worker, stop or restart the locks' Redis, and so
 * on. When the workers are done it merges their histories, checks them with
 * {@link HistoryChecker}, and reads the witness's counters into a {@link HistoryReport}.
 * The worker processes are kept for the next run ({@link HistoryWorkers}) once they ended
 * this one cleanly.
 *
 * @author setnx-lock authors
 */
final class HistoryRun implements AutoCloseable {

	private final Settings settings;

	private final Path directory;

	private final List<HistoryWorkers.Worker> workers = new ArrayList<>();

	/** Whether the workers ended their runs cleanly and went back to be used again. */
	private boolean workersGivenBack;

	private HistoryRun(Settings settings, Path directory) {
		this.settings = settings;
		this.directory = directory;
	}

	/**
	 * Start the workers and return once each is about to work.
	 * @param settings the run's settings
	 * @param lockPort the port of the locks' Redis (or of a proxy in front of it)
	 * @param witness the witness's Redis
	 * @param directory where the workers write
	 * @return the running run
	 */
	static HistoryRun start(Settings settings, int lockPort, RedisServer witness, Path directory) {
		return start(settings, "port=" + lockPort, witness, directory);
	}

	/**
	 * Start workers that lock with Redlock on several independent Redis masters, and
	 * return once each is about to work.
	 * @param settings the run's settings, under the token protocol
	 * @param lockPorts the ports of the masters (or of proxies in front of them)
	 * @param witness the witness's Redis
	 * @param directory where the workers write
	 * @return the running run
	 */
	static HistoryRun start(Settings settings, List<Integer> lockPorts, RedisServer witness, Path directory) {
		return start(settings, "ports=" + String.join(",", lockPorts.stream().map(String::valueOf).toList()), witness,
				directory);
	}

	private static HistoryRun start(Settings settings, String locks, RedisServer witness, Path directory) {
		HistoryRun run = new HistoryRun(settings, directory);
		try {
			Files.createDirectories(directory);
			for (int i = 0; i < settings.processes; i++) {
				// A worker writes its files once it reads its run: none of an earlier
				// run's
				// may be taken for its own.
				Files.deleteIfExists(run.log(i));
				Files.deleteIfExists(run.records(i));
				HistoryWorkers.Worker worker = HistoryWorkers.take();
				run.workers.add(worker);
				worker.run(List.of(locks, "witness=" + witness.port(), "protocol=" + settings.protocol,
						"clock=" + settings.clock,
						"clockOffsetMs=" + ((i == 0) ? settings.firstClockOffset.toMillis() : 0),
						"keys=" + settings.keys, "threads=" + settings.threads, "runMs=" + settings.runTime.toMillis(),
						"leaseMs=" + settings.lease.toMillis(), "explicitLease=" + settings.explicitLease,
						"waitMs=" + settings.wait.toMillis(),
						"workMs=" + ((i == 0 && settings.firstWork != null) ? settings.firstWork : settings.work)
							.toMillis(),
						"commandTimeoutMs=" + settings.commandTimeout.toMillis(), "output=" + run.records(i),
						"log=" + run.log(i), "name=p" + i, "announce=" + (i == 0 && settings.announceFirst),
						"lock=" + (settings.careless ? "careless"
								: (settings.asyncInOddProcesses && i % 2 == 1) ? "async" : "library"),
						"refusing=" + (settings.refusingInEvenProcesses && i % 2 == 0),
						"lingerMs=" + settings.linger.toMillis(), "lateTokens=" + settings.lateTokens));
			}
			for (int i = 0; i < settings.processes; i++) {
				run.awaitLine(i, "READY", 0, Duration.ofSeconds(60));
			}
		}
		catch (IOException | RuntimeException ex) {
			run.close();
			throw (ex instanceof IOException io) ? new UncheckedIOException(io) : (RuntimeException) ex;
		}
		return run;
	}

	/**
	 * Return a worker's process, to pause it for instance.
	 * @param index the worker's index
	 * @return its process
	 */
	Process process(int index) {
		return this.workers.get(index).process;
	}

	/**
	 * Stop a worker's process (SIGSTOP), every thread of it at once, as a long garbage
	 * collection or a frozen virtual machine would.
	 * @param index the worker's index
	 */
	void pause(int index) {
		ProcessSignals.pause(process(index));
	}

	/**
	 * Let a paused worker go on (SIGCONT).
	 * @param index the worker's index
	 */
	void resume(int index) {
		ProcessSignals.resume(process(index));
	}

	/**
	 * Return how many lines starting with a prefix a worker has printed.
	 * @param index the worker's index
	 * @param prefix the start of the lines
	 * @return how many there are
	 */
	int countLines(int index, String prefix) {
		return (int) log(index, "").lines().filter((line) -> line.startsWith(prefix)).count();
	}

	/**
	 * Return how many locks the workers' registries reported lost ({@code LOST} lines).
	 * @return the number of losses reported
	 */
	int lossesReported() {
		int losses = 0;
		for (int i = 0; i < this.workers.size(); i++) {
			losses += countLines(i, "LOST");
		}
		return losses;
	}

	/**
	 * Wait until every worker has run its last section and lingers ({@code FINISHED}, see
	 * {@link Settings#linger}), so that what is left in Redis can be read while the
	 * registries are still up.
	 */
	void awaitFinished() {
		for (int i = 0; i < this.workers.size(); i++) {
			awaitLine(i, "FINISHED", 0, Duration.ofSeconds(60));
		}
	}

	/**
	 * Wait for a worker to print a line starting with a prefix, and return it.
	 * @param index the worker's index
	 * @param prefix the start of the line
	 * @param skip how many such lines to pass over
	 * @param timeout how long to wait
	 * @return the first such line after the skipped ones
	 */
	String awaitLine(int index, String prefix, int skip, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			String log = log(index, "");
			List<String> lines = log.lines().filter((line) -> line.startsWith(prefix)).toList();
			if (lines.size() > skip) {
				return lines.get(skip);
			}
			if (!process(index).isAlive() || System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Worker p" + index + " did not print '" + prefix + "':\n" + log);
			}
			sleep(5);
		}
	}

	/**
	 * Wait for every worker to finish, then check and sum up the run.
	 * @param witness the witness's Redis
	 * @return the report
	 */
	HistoryReport finish(RedisServer witness) {
		List<HistoryRecord> records = new ArrayList<>();
		List<String> summaries = new ArrayList<>();
		for (int i = 0; i < this.workers.size(); i++) {
			String end;
			try {
				end = this.workers.get(i).awaitEnd(this.settings.runTime.plusSeconds(120));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted waiting for worker p" + i, ex);
			}
			String log = log(i, "");
			if (end == null) {
				throw new IllegalStateException("Worker p" + i + " did not finish:\n" + log);
			}
			if (!end.equals(HistoryWorkers.DONE) || log.contains("Exception in thread")) {
				throw new IllegalStateException("Worker p" + i + " failed (" + end + "):\n" + log);
			}
			try {
				for (String line : Files.readAllLines(records(i))) {
					if (line.startsWith("SUMMARY ")) {
						summaries.add(line);
					}
					else {
						records.add(HistoryRecord.parse(line));
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		this.workers.forEach(HistoryWorkers.Worker::giveBack);
		this.workersGivenBack = true;
		List<Witness.Tally> tallies = new ArrayList<>();
		LettuceConnectionFactory factory = RedisConnections.create(witness, Duration.ofSeconds(10));
		try {
			Witness store = new Witness(RedisConnections.template(factory));
			for (int k = 0; k < this.settings.keys; k++) {
				tallies.add(store.tally("history:" + k));
			}
		}
		finally {
			RedisConnections.destroy(factory);
		}
		return HistoryReport.of(records, summaries, tallies, HistoryChecker.violations(records));
	}

	private Path records(int index) {
		return this.directory.resolve("p" + index + ".history");
	}

	private Path log(int index) {
		return this.directory.resolve("p" + index + ".log");
	}

	private String log(int index, String none) {
		try {
			return Files.exists(log(index)) ? Files.readString(log(index)) : none;
		}
		catch (IOException ex) {
			return none;
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	@Override
	public void close() {
		if (!this.workersGivenBack) {
			this.workers.forEach(HistoryWorkers.Worker::destroy);
		}
	}

	/**
	 * What a run does. The first worker may be given a clock offset and may announce its
	 * critical sections; the others never.
	 */
	static final class Settings {

		int processes = 3;

		int threads = 3;

		int keys = 2;

		Duration runTime = Duration.ofSeconds(5);

		Duration lease = Duration.ofSeconds(1);

		boolean explicitLease;

		Duration wait = Duration.ofSeconds(2);

		Duration work = Duration.ofMillis(4);

		/** The first worker's work per section, if not {@link #work}. */
		Duration firstWork;

		Settings(LockProtocol protocol) {
			this.protocol = protocol;
		}

		Duration commandTimeout = Duration.ofSeconds(2);

		final LockProtocol protocol;

		TimestampClock clock = TimestampClock.REDIS;

		Duration firstClockOffset = Duration.ZERO;

		boolean announceFirst;

		/** Whether every worker runs a {@link CarelessLock} instead of the library's. */
		boolean careless;

		/**
		 * Whether the workers of every other process take asynchronous holds
		 * ({@link AsyncHeldLock}) rather than threads' holds.
		 */
		boolean asyncInOddProcesses;

		/**
		 * Whether every other process, from the first, connects to the Redlock masters as
		 * the starter does, refusing commands while a connection is down, rather than
		 * sending unanswered commands again on the next connection.
		 */
		boolean refusingInEvenProcesses;

		/**
		 * How long each worker stays up after its last section, having printed
		 * {@code FINISHED}; zero for not at all.
		 */
		Duration linger = Duration.ZERO;

		/**
		 * The share of sections whose holder asks for its fencing token only after a
		 * random part of its work, as work under a lock may. None by default: runs that
		 * show a hazard need holders that showed the store their token at once.
		 */
		double lateTokens;

	}

}
