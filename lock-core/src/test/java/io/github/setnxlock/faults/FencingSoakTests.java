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
 * must end with no violation and no lost update. Run it with the {@code soak} profile,
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

}
