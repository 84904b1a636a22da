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
import java.util.ArrayList;
import java.util.List;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The multi-process history check of {@link FencingHistoryTests}, over Redlock on five
 * independent masters: while workers in several JVMs lock, draw fencing tokens and write
 * the {@link Witness}, a minority of the nodes (two at most, and never the same two for
 * long) is frozen, killed and restarted without its data, and comes back. No two holders
 * that believed they held the lock may overlap, fencing tokens must increase in the order
 * the sections began, and no fenced update may be lost.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class RedlockHistoryTests {

	private RedisNodes nodes;

	/** The protected store's Redis, which no test faults. */
	private RedisServer witness;

	@BeforeEach
	void startRedis() {
		this.nodes = RedisNodes.start(5);
		this.witness = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		try {
			this.nodes.close();
		}
		finally {
			this.witness.close();
		}
	}

	@Test
	void aMinorityFrozenKilledOrRestartedEmptyNeverMakesTwoHoldersNorLowersATokenNorLosesAnUpdate(
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = new HistoryRun.Settings(LockProtocol.TOKEN);
		settings.runTime = Duration.ofSeconds(11);
		List<Integer> ports = new ArrayList<>();
		this.nodes.nodes().forEach((node) -> ports.add(node.port()));
		try (HistoryRun run = HistoryRun.start(settings, ports, this.witness, directory)) {
			Thread.sleep(1000);
			// Two frozen: the three others are a majority.
			this.nodes.pause(0);
			this.nodes.pause(1);
			long frozenAt = FaultClient.micros();
			Thread.sleep(1500);
			long thawedAt = FaultClient.micros();
			this.nodes.resume(0);
			this.nodes.resume(1);
			// One killed for longer than the lease and restarted empty.
			this.nodes.stop(4);
			Thread.sleep(settings.lease.toMillis() + 200);
			this.nodes.restart(4);
			// One frozen while another is killed and restarted empty within the lease:
			// the restarted one must not count before the longest lease has passed.
			this.nodes.pause(2);
			this.nodes.stop(0);
			Thread.sleep(settings.lease.toMillis() / 2);
			this.nodes.restart(0);
			Thread.sleep(settings.lease.toMillis() / 2);
			this.nodes.resume(2);
			Thread.sleep(500);
			// Killed and restarted at once, while a holder may count on it.
			this.nodes.restart(3);
			Thread.sleep(1000);
			this.nodes.pause(1);
			this.nodes.pause(4);
			Thread.sleep(1000);
			this.nodes.resume(1);
			this.nodes.resume(4);
			long faultsEndedAt = FaultClient.micros();
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("Redlock on 5 nodes, a minority frozen, killed and restarted empty")
					+ "; sections begun while two nodes were frozen "
					+ report.records()
						.stream()
						.filter((record) -> record.entered() >= frozenAt && record.entered() <= thawedAt)
						.count());
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			assertThat(report.records()).as("sections while two nodes were frozen")
				.anySatisfy((record) -> assertThat(record.entered()).isBetween(frozenAt, thawedAt));
			assertThat(report.records()).as("sections after the faults")
				.anySatisfy((record) -> assertThat(record.entered()).isGreaterThan(faultsEndedAt));
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(100);
		}
	}

}
