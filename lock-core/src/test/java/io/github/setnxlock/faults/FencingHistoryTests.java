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
import java.util.List;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several processes of several threads contend on a few keys while faults hit them, and
 * the merged history is checked: fencing tokens increase in entry order, no two holders
 * overlap while both believe they hold the lock, and the fenced counter in the
 * {@link Witness} loses no update. Each test prints its figures.
 * <p>
 * The runs here are short, for the default build; {@code FencingSoakTests} runs longer
 * ones behind the {@code soak} profile.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class FencingHistoryTests {

	private RedisServer locks;

	/** The protected store's Redis, which no test faults. */
	private RedisServer witness;

	@BeforeEach
	void startRedis() {
		this.locks = RedisServer.start();
		this.witness = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		this.locks.close();
		this.witness.close();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void contendingProcessesNeverOverlapAndLoseNoUpdate(LockProtocol protocol, @TempDir Path directory)
			throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		// A lease no stall of a busy machine outlasts: without faults, every holder keeps
		// its lock to the end of its section.
		settings.lease = Duration.ofSeconds(5);
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("No faults, " + protocol));
			assertThat(report.violations()).isEmpty();
			assertThat(report.sections()).isGreaterThan(100);
			assertThat(report.believedHeld()).isEqualTo(report.sections());
			assertThat(report.lostUpdates()).isZero();
			assertThat(report.unfencedLostUpdates()).isZero();
			assertThat(report.staleRejected()).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void asynchronousAndThreadHoldsOfContendingProcessesNeverOverlapAndLoseNoUpdate(LockProtocol protocol,
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		settings.lease = Duration.ofSeconds(5);
		settings.asyncInOddProcesses = true;
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("Asynchronous holds in every other process, " + protocol));
			assertThat(report.violations()).isEmpty();
			assertThat(report.sections()).isGreaterThan(100);
			assertThat(report.believedHeld()).isEqualTo(report.sections());
			assertThat(report.lostUpdates()).isZero();
			assertThat(report.unfencedLostUpdates()).isZero();
			assertThat(report.records()).extracting(HistoryRecord::process).contains("p0", "p1");
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aHolderPausedLongerThanItsLeaseIsReplacedLearnsItLostTheLockAndItsWriteIsRefused(LockProtocol protocol,
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		settings.runTime = Duration.ofSeconds(7);
		settings.announceFirst = true;
		settings.firstWork = Duration.ofMillis(600);
		Duration pause = settings.lease.multipliedBy(3);
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			// Catch the first worker inside a critical section, between its read and its
			// write, and freeze it there.
			String announced = run.awaitLine(0, "IN ", run.countLines(0, "IN "), Duration.ofSeconds(10));
			run.pause(0);
			long pausedAt = FaultClient.micros();
			Thread.sleep(pause.toMillis());
			long resumedAt = FaultClient.micros();
			run.resume(0);
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("Holder paused " + pause.toMillis() + " ms, " + protocol));
			String key = announced.split(" ")[1];
			long token = Long.parseLong(announced.split(" ")[2]);
			assertThat(report.records()).filteredOn((record) -> record.key().equals(key) && record.token() == token)
				.singleElement()
				.satisfies((paused) -> {
					assertThat(paused.heldAtExit()).as("still held after the pause").isFalse();
					assertThat(paused.unlockFound()).isEqualTo("lost");
					assertThat(paused.written()).as("stale write accepted").isFalse();
				});
			assertThat(report.records()).as("another holder took the key over during the pause")
				.anySatisfy((record) -> {
					assertThat(record.key()).isEqualTo(key);
					assertThat(record.token()).isGreaterThan(token);
					assertThat(record.entered()).isBetween(pausedAt, resumedAt);
				});
			assertThat(report.staleRejected()).isPositive();
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			// About 700 when measured; a lock that gave up its holds early would pass the
			// checks above with none.
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(100);
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void redisKilledForLongerThanTheLeaseAndRestartedEmptyLosesNoUpdateAndTokensKeepIncreasing(LockProtocol protocol,
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(protocol);
		settings.runTime = Duration.ofSeconds(8);
		settings.wait = Duration.ofMillis(500);
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			Thread.sleep(2000);
			this.locks.stop();
			long stoppedAt = FaultClient.micros();
			Thread.sleep(settings.lease.multipliedBy(2).toMillis());
			long restartedAt = FaultClient.micros();
			this.locks.restart();
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("Redis down " + settings.lease.multipliedBy(2).toMillis()
					+ " ms and restarted without data, " + protocol));
			assertThat(report.errors()).as("acquisitions that failed during the outage").isPositive();
			List<HistoryRecord> before = report.records().stream().filter((r) -> r.entered() < stoppedAt).toList();
			List<HistoryRecord> after = report.records().stream().filter((r) -> r.entered() > restartedAt).toList();
			assertThat(before).isNotEmpty();
			assertThat(after).as("sections after the restart: scripts reloaded, connections back").isNotEmpty();
			assertThat(after.stream().mapToLong(HistoryRecord::token).min().getAsLong())
				.isGreaterThan(before.stream().mapToLong(HistoryRecord::token).max().getAsLong());
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			// About 1,300 when measured.
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(200);
		}
	}

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
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			for (int i = 0; i < 3; i++) {
				Thread.sleep(1000);
				// Every lock is forgotten while its holder still counts on it.
				this.locks.restart();
			}
			HistoryReport report = run.finish(this.witness);
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

	@Test
	void aReleaseThatDeletesWithoutComparingFailsTheCheckWhereTheLibraryPasses(@TempDir Path directory)
			throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(LockProtocol.TOKEN);
		settings.runTime = Duration.ofSeconds(4);
		// Sections that outlast their lease one time in three: a holder that did deletes
		// its successor's key when it releases.
		settings.explicitLease = true;
		settings.lease = Duration.ofMillis(100);
		settings.work = Duration.ofMillis(120);
		settings.careless = true;
		HistoryReport careless = runToTheEnd(settings, directory.resolve("careless"));
		System.out.println(careless.summary("A release that deletes without comparing"));
		this.locks.execute("FLUSHALL");
		this.witness.execute("FLUSHALL");
		settings.careless = false;
		HistoryReport library = runToTheEnd(settings, directory.resolve("library"));
		System.out.println(library.summary("The library, same settings"));
		assertThat(careless.violations()).anySatisfy((violation) -> assertThat(violation).startsWith("two holders"));
		assertThat(library.violations()).isEmpty();
		// About 50 when measured.
		assertThat(library.believedHeld()).as("sections the library held throughout").isGreaterThan(15);
		assertThat(library.sections()).as("sections that outlasted their lease").isGreaterThan(library.believedHeld());
	}

	private HistoryReport runToTheEnd(HistoryRun.Settings settings, Path directory) {
		try (HistoryRun run = HistoryRun.start(settings, this.locks.port(), this.witness, directory)) {
			return run.finish(this.witness);
		}
	}

}
