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

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The long run of {@link FencingHistoryTests}: more processes for minutes, under a stream
 * of random faults (a worker frozen for two to three leases, Redis stopped for two leases
 * and restarted empty), for each protocol (the timestamp protocol on the Redis clock). It
 * must end with no violation and no lost update; beside it, the demonstration of a Redis
 * restarted without its data within a lease. Run them with the {@code soak} profile,
 * which sets {@code setnx.lock.soak.duration} (five minutes a protocol by default): <pre>
 * ./mvnw -B -pl lock-test-support,lock-core -Psoak verify
 * </pre>
 *
 * @author setnx-lock authors
 */
@EnabledIfSystemProperty(named = FencingSoakTests.DURATION, matches = ".+")
@ResourceLock(SharedResources.CORES)
class FencingSoakTests {

	static final String DURATION = "setnx.lock.soak.duration";

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void manyProcessesUnderRandomFaultsNeverOverlapAndLoseNoUpdate(LockProtocol protocol, @TempDir Path directory)
			throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		settings.processes = 4;
		settings.threads = 4;
		settings.keys = 3;
		settings.runTime = Duration.parse(System.getProperty(DURATION));
		settings.wait = Duration.ofSeconds(1);
		settings.lateTokens = 0.5;
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int pauses = 0;
		int outages = 0;
		try (RedisServer locks = RedisServer.start();
				RedisServer witness = RedisServer.start();
				HistoryRun run = HistoryRun.start(settings, locks.port(), witness, directory)) {
			long end = System.nanoTime() + settings.runTime.toNanos() - Duration.ofSeconds(10).toNanos();
			while (System.nanoTime() - end < 0) {
				Thread.sleep(random.nextLong(3000, 6000));
				if (random.nextInt(10) < 7) {
					int worker = random.nextInt(settings.processes);
					run.pause(worker);
					Thread.sleep(random.nextLong(settings.lease.toMillis() * 2, settings.lease.toMillis() * 3));
					run.resume(worker);
					pauses++;
				}
				else {
					locks.stop();
					Thread.sleep(settings.lease.toMillis() * 2);
					locks.restart();
					outages++;
				}
			}
			HistoryReport report = run.finish(witness);
			System.out.println(report.summary("Soak of " + settings.runTime + ", " + protocol + ", " + pauses
					+ " workers frozen, " + outages + " Redis outages"));
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			// A fault-free run holds about 250 sections a second; faults take a part of
			// that, a lock that gave up its holds early would take all of it.
			assertThat(report.believedHeld()).as("sections held throughout")
				.isGreaterThan(settings.runTime.toSeconds() * 10);
		}
	}

	/**
	 * What a Redis restarted without its data sooner than a lease does: it has forgotten
	 * locks whose holders still count on them, so two holders overlap until the old one's
	 * next renewal, and only fencing keeps the updates. A demonstration of a hazard the
	 * library documents (guarantees.md, "Does not hold"): it must see two holders, which
	 * a short run may not, so it runs here rather than in the default build.
	 */
	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aRestartWithoutDataFasterThanTheLeaseMakesTwoHoldersAndOnlyFencingSavesTheUpdates(LockProtocol protocol,
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		settings.runTime = Duration.ofSeconds(6);
		settings.lease = Duration.ofSeconds(3);
		// Sections long against the restarts, and short waits: a waiter tries again
		// within 100 ms, finds the forgotten key free and begins while the holder, whose
		// next renewal is up to a second away, still counts on its lock.
		settings.work = Duration.ofMillis(500);
		settings.wait = Duration.ofMillis(100);
		// Holders ask for their token at once (the default): the hazard shows with
		// holders
		// that had a token before their key was forgotten (one asked for later is
		// refused:
		// FencingHistoryTests.aHolderWhoseKeyWasForgottenIsRefusedATokenItAsksForAfterItsSuccessor).
		try (RedisServer locks = RedisServer.start();
				RedisServer witness = RedisServer.start();
				HistoryRun run = HistoryRun.start(settings, locks.port(), witness, directory)) {
			for (int i = 0; i < 3; i++) {
				Thread.sleep(1000);
				// Every lock is forgotten while its holder still counts on it.
				locks.restart();
			}
			HistoryReport report = run.finish(witness);
			System.out.println(report.summary("Redis restarted without data 3 times within the lease, " + protocol));
			assertThat(report.violations()).as("two holders at once: what a restart without data does")
				.anySatisfy((violation) -> assertThat(violation).startsWith("two holders"));
			assertThat(report.violations()).as("fencing tokens must still increase, and no fenced update be lost")
				.allSatisfy((violation) -> assertThat(violation).startsWith("two holders"));
			assertThat(report.staleRejected()).as("writes of the holder that was forgotten, refused").isPositive();
			assertThat(report.unfencedLostUpdates()).as("what the same sections lost without fencing").isPositive();
			assertThat(report.lostUpdates()).isZero();
			// About 35 when measured (sections of half a second, and waits of 100 ms that
			// mostly end in a timeout).
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(10);
		}
	}

}
