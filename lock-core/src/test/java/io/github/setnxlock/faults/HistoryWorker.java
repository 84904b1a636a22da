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

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.RedlockNode;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.redis.TimestampUnit;
import io.github.setnxlock.test.RedisConnections;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One process of a {@link HistoryRun}: several threads take locks on a few shared keys
 * until the run's end, and in each critical section read the {@link Witness} counter with
 * their fencing token, work a little, and write it back incremented. Every section is
 * written to the output file as a {@link HistoryRecord}; the last line sums up the
 * process ({@code SUMMARY} with its acquisitions, takeovers, timeouts, errors, and
 * acquisitions whose lease ended before the section could begin). The first errors are
 * printed ({@code ERROR ...}) to tell what went wrong.
 * <p>
 * A failed acquisition (Redis down, a proxy dropping traffic) is counted and tried again
 * shortly; the run goes on through faults, which is the point of it. With
 * {@code announce=true} a thread prints {@code IN <key> <token>} once it has read the
 * counter, so that a test can pause the process in the middle of a critical section.
 * <p>
 * A worker runs one run after another, as {@link HistoryWorkers} hands them out, each
 * from a line of arguments on its standard input: its JVM is warm after the first, but
 * every run connects anew, with a registry of its own. Arguments, as {@code name=value}:
 * {@code log} (where the run prints), {@code port} (or {@code ports}, a comma-separated
 * list of independent Redis masters that the worker locks on with Redlock, under the
 * token protocol), {@code witness}, {@code protocol}, {@code clock},
 * {@code clockOffsetMs}, {@code keys}, {@code threads}, {@code runMs}, {@code leaseMs},
 * {@code explicitLease}, {@code waitMs}, {@code workMs}, {@code commandTimeoutMs},
 * {@code output}, {@code name}, {@code announce}, {@code lateTokens} (the share of
 * sections that ask for their token after part of their work), and {@code lock=careless}
 * to run a {@link CarelessLock} instead of the library's, or {@code lock=async} for the
 * library's asynchronous holds ({@link AsyncHeldLock}). It warms up on keys of its own,
 * then prints {@code READY} when it is about to start.
 * <p>
 * Under Redlock, {@code refusing=true} connects to the masters as the starter does,
 * refusing commands while a connection is down (and failing those it had not answered)
 * rather than sending them again on the next one; {@code lingerMs} keeps the process up
 * that long after its last section, printing {@code FINISHED} first, so that what the
 * registry still sends after the last release gets there. Each lock the registry reports
 * lost is printed as {@code LOST <reason>}.
 *
 * @author setnx-lock authors
 */
public final class HistoryWorker {

	private final Map<String, String> options;

	private final AtomicLong acquisitions = new AtomicLong();

	private final AtomicLong takeovers = new AtomicLong();

	private final AtomicLong timeouts = new AtomicLong();

	private final AtomicLong errors = new AtomicLong();

	private final AtomicLong lostBeforeEntry = new AtomicLong();

	private HistoryWorker(Map<String, String> options) {
		this.options = options;
	}

	/**
	 * Run history runs, one for each line on standard input (its arguments, separated by
	 * tabs), each printing to the log its {@code log} argument names; print
	 * {@link HistoryWorkers#DONE} on standard output after each, or
	 * {@link HistoryWorkers#FAILED} and end when one fails. Ends when standard input
	 * does.
	 * @param args none
	 * @throws IOException if standard input cannot be read
	 */
	public static void main(String[] args) throws IOException {
		PrintStream control = System.out;
		BufferedReader runs = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line = runs.readLine(); line != null; line = runs.readLine()) {
			PrintStream log = control;
			try {
				Map<String, String> options = options(line);
				log = new PrintStream(Files.newOutputStream(Path.of(options.get("log"))), true, StandardCharsets.UTF_8);
				System.setOut(log);
				System.setErr(log);
				new HistoryWorker(options).run();
			}
			catch (Throwable ex) {
				log.print("Exception in thread \"" + Thread.currentThread().getName() + "\" ");
				ex.printStackTrace(log);
				control.println(HistoryWorkers.FAILED + " " + ex);
				control.flush();
				System.exit(1);
			}
			finally {
				System.setOut(control);
				System.setErr(control);
				if (log != control) {
					log.close();
				}
			}
			control.println(HistoryWorkers.DONE);
			control.flush();
		}
		// Lettuce's threads would keep a JVM whose work is done alive.
		System.exit(0);
	}

	private static Map<String, String> options(String line) {
		Map<String, String> options = new HashMap<>();
		for (String arg : line.split("\t")) {
			int equals = arg.indexOf('=');
			if (equals < 1) {
				throw new IllegalArgumentException("Arguments are name=value, not '" + arg + "'");
			}
			options.put(arg.substring(0, equals), arg.substring(equals + 1));
		}
		return options;
	}

	private String option(String name) {
		String value = this.options.get(name);
		if (value == null) {
			throw new IllegalArgumentException("Missing argument " + name + "=");
		}
		return value;
	}

	private long number(String name) {
		return Long.parseLong(option(name));
	}

	private void run() throws Exception {
		Duration commandTimeout = Duration.ofMillis(number("commandTimeoutMs"));
		List<LettuceConnectionFactory> nodes = new ArrayList<>();
		boolean refusing = Boolean.parseBoolean(this.options.getOrDefault("refusing", "false"));
		for (String port : (this.options.containsKey("ports") ? option("ports") : option("port")).split(",")) {
			nodes.add(connect(Integer.parseInt(port), commandTimeout, refusing));
		}
		LettuceConnectionFactory locks = nodes.get(0);
		LettuceConnectionFactory store = connect((int) number("witness"), Duration.ofSeconds(10), false);
		Witness witness = new Witness(RedisConnections.template(store));
		LockProtocol protocol = LockProtocol.valueOf(option("protocol"));
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.timestampClock(TimestampClock.valueOf(option("clock")))
			.localClock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(number("clockOffsetMs"))))
			.leaseTime(Duration.ofMillis(number("leaseMs")))
			.build();
		LockListener counting = new LockListener() {

			@Override
			public void acquisitionEnded(Acquisition acquisition) {
				if (acquisition.tookOver()) {
					HistoryWorker.this.takeovers.incrementAndGet();
				}
			}

			@Override
			public void lockLost(LockLostEvent event) {
				System.out.println("LOST " + event.reason());
				System.out.flush();
			}

		};
		SetnxLockRegistry registry = (nodes.size() == 1)
				? new SetnxLockRegistry(RedisConnections.template(locks), settings, List.of(counting))
				: new SetnxLockRegistry(redlockNodes(nodes), settings, List.of(counting));
		Function<String, LeasedLock> obtain = registry::obtain;
		if ("careless".equals(this.options.getOrDefault("lock", "library"))) {
			StringRedisTemplate template = RedisConnections.template(locks);
			obtain = (key) -> new CarelessLock(template, key, settings.leaseTime());
		}
		else if ("async".equals(this.options.get("lock"))) {
			obtain = (key) -> new AsyncHeldLock(registry.obtain(key));
		}
		// A cold JVM on a busy machine takes seconds over its first locks, and may even
		// time out; the run is about the steady state.
		String warmUp = "warm-up:" + option("name");
		long warmUpEnd = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		for (int done = 0; done < 100 && System.nanoTime() - warmUpEnd < 0;) {
			LeasedLock lock = obtain.apply(warmUp);
			try {
				lock.lock();
				witness.write(warmUp, lock.fencingToken(), witness.read(warmUp, lock.fencingToken()) + 1);
				lock.unlock();
				done++;
			}
			catch (RuntimeException ex) {
				unlock(lock);
			}
		}
		System.out.println("READY");
		System.out.flush();
		long end = System.nanoTime() + Duration.ofMillis(number("runMs")).toNanos();
		int threads = (int) number("threads");
		List<List<HistoryRecord>> records = new ArrayList<>();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			List<HistoryRecord> mine = new ArrayList<>();
			records.add(mine);
			int thread = t;
			Function<String, LeasedLock> sectionLocks = obtain;
			workers.add(new Thread(() -> work(sectionLocks, witness, thread, end, mine), option("name") + "-" + t));
		}
		workers.forEach(Thread::start);
		for (Thread worker : workers) {
			worker.join();
		}
		long linger = Long.parseLong(this.options.getOrDefault("lingerMs", "0"));
		if (linger > 0) {
			System.out.println("FINISHED");
			System.out.flush();
			pause(linger);
		}
		try (BufferedWriter out = Files.newBufferedWriter(Path.of(option("output")))) {
			for (List<HistoryRecord> mine : records) {
				for (HistoryRecord record : mine) {
					out.write(record.line());
					out.newLine();
				}
			}
			out.write("SUMMARY " + option("name") + " " + this.acquisitions + " " + this.takeovers + " " + this.timeouts
					+ " " + this.errors + " " + this.lostBeforeEntry);
			out.newLine();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		registry.close();
		nodes.forEach(LettuceConnectionFactory::destroy);
		store.destroy();
	}

	private static List<RedlockNode> redlockNodes(List<LettuceConnectionFactory> factories) {
		List<RedlockNode> nodes = new ArrayList<>();
		for (LettuceConnectionFactory factory : factories) {
			RedisStandaloneConfiguration server = factory.getStandaloneConfiguration();
			nodes.add(
					new RedlockNode(server.getHostName() + ":" + server.getPort(), RedisConnections.template(factory)));
		}
		return nodes;
	}

	private void work(Function<String, LeasedLock> locks, Witness witness, int thread, long end,
			List<HistoryRecord> records) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		Duration wait = Duration.ofMillis(number("waitMs"));
		Duration lease = Duration.ofMillis(number("leaseMs"));
		boolean explicitLease = Boolean.parseBoolean(option("explicitLease"));
		boolean announce = Boolean.parseBoolean(this.options.getOrDefault("announce", "false"));
		long work = number("workMs");
		int keys = (int) number("keys");
		double lateTokens = Double.parseDouble(this.options.getOrDefault("lateTokens", "0"));
		while (System.nanoTime() - end < 0) {
			String key = "history:" + random.nextInt(keys);
			LeasedLock lock = locks.apply(key);
			try {
				boolean acquired = explicitLease ? lock.tryLock(wait, lease) : lock.tryLock(wait);
				if (!acquired) {
					this.timeouts.incrementAndGet();
					continue;
				}
			}
			catch (LockAccessException ex) {
				// Redis down or out of reach: the run goes on, and tries again soon.
				if (this.errors.incrementAndGet() <= 3) {
					System.out.println("ERROR " + ex);
				}
				pause(20);
				continue;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			this.acquisitions.incrementAndGet();
			long acquired = FaultClient.micros();
			// Some holders ask for their token only after part of their work, as work
			// under
			// a lock may: a holder whose key went meanwhile (a restart without data) must
			// be refused a token rather than given one above its successor's.
			long pauseMillis = random.nextLong(work / 2, work + 1);
			long beforeToken = (random.nextDouble() < lateTokens) ? random.nextLong(pauseMillis + 1) : 0;
			pause(beforeToken);
			long token;
			try {
				token = lock.fencingToken();
			}
			catch (LockLostException ex) {
				// Taking the lock took longer than its lease (a machine busy enough to
				// stall this process), or the key went while the holder worked before
				// asking for its token: no section is entered.
				this.lostBeforeEntry.incrementAndGet();
				unlock(lock);
				continue;
			}
			catch (LockAccessException ex) {
				// The token is drawn at this first request (token protocol), and Redis
				// went down in between: no section is entered without a token; the hold
				// is given back and the run tries again soon.
				if (this.errors.incrementAndGet() <= 3) {
					System.out.println("ERROR " + ex);
				}
				unlock(lock);
				pause(20);
				continue;
			}
			long entered = FaultClient.micros();
			boolean heldAtEntry = lock.isHeldByCurrentThread();
			long value = witness.read(key, token);
			long unfenced = witness.readUnfenced(key);
			if (announce) {
				System.out.println("IN " + key + " " + token);
				System.out.flush();
			}
			pause(pauseMillis - beforeToken);
			boolean written = value >= 0 && witness.write(key, token, value + 1);
			witness.writeUnfenced(key, unfenced + 1);
			long exited = FaultClient.micros();
			boolean heldAtExit = lock.isHeldByCurrentThread();
			records.add(new HistoryRecord(option("name"), thread, key, token, entered, exited, heldAtEntry, heldAtExit,
					value, written, unlock(lock), acquired));
		}
	}

	private static String unlock(LeasedLock lock) {
		if (lock.holdCount() == 0) {
			return "none";
		}
		try {
			lock.unlock();
			return "ok";
		}
		catch (LockLostException ex) {
			return "lost";
		}
		catch (LockAccessException ex) {
			return "error";
		}
	}

	private static LettuceConnectionFactory connect(int port, Duration commandTimeout, boolean refusing) {
		if (refusing) {
			return RedisConnections.createRedlockNode("127.0.0.1", port, commandTimeout);
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
