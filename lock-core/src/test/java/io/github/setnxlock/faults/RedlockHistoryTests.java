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
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;
import io.github.setnxlock.test.TcpProxy;
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
 * <p>
 * Every node is reached through a proxy that now and then passes a lock command on and
 * closes the connection before its answer comes back, as a connection that breaks at the
 * wrong moment does: the command ran, and the client does not know. Every other process
 * connects as the starter does, failing such a command; the others send it again on the
 * next connection (Lettuce's default). A few round trips after the last release no node
 * may hold a lock's key, and with nothing but lost answers no lock may be reported lost.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class RedlockHistoryTests {

	private static final String PREFIX = SetnxLockSettings.defaults().keyPrefix();

	/** How soon after the last release no node may hold a key: many round trips. */
	private static final Duration SETTLED = Duration.ofSeconds(1);

	private RedisNodes nodes;

	private final List<TcpProxy> proxies = new ArrayList<>();

	/** The protected store's Redis, which no test faults. */
	private RedisServer witness;

	@BeforeEach
	void startRedis() {
		this.nodes = RedisNodes.start(5);
		this.nodes.nodes().forEach((node) -> this.proxies.add(TcpProxy.start(node)));
		this.witness = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		try {
			this.proxies.forEach(TcpProxy::close);
			this.nodes.close();
		}
		finally {
			this.witness.close();
		}
	}

	@Test
	void aMinorityFrozenKilledOrRestartedEmptyNeverMakesTwoHoldersNorLowersATokenNorLosesAnUpdate(
			@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = settings();
		settings.runTime = Duration.ofSeconds(11);
		try (HistoryRun run = HistoryRun.start(settings, proxyPorts(), this.witness, directory);
				LostAnswers lostAnswers = new LostAnswers(this.proxies, PREFIX + "history:")) {
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
			run.awaitFinished();
			lostAnswers.close();
			List<String> left = keysLeft(settings);
			HistoryReport report = run.finish(this.witness);
			System.out.println(report.summary("Redlock on 5 nodes, a minority frozen, killed and restarted empty")
					+ "; sections begun while two nodes were frozen "
					+ report.records()
						.stream()
						.filter((record) -> record.entered() >= frozenAt && record.entered() <= thawedAt)
						.count()
					+ "; answers lost " + lostAnswers.lost() + "; locks reported lost " + run.lossesReported());
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			assertThat(left).as("keys on the nodes after every holder released").isEmpty();
			assertThat(report.records()).as("sections while two nodes were frozen")
				.anySatisfy((record) -> assertThat(record.entered()).isBetween(frozenAt, thawedAt));
			assertThat(report.records()).as("sections after the faults")
				.anySatisfy((record) -> assertThat(record.entered()).isGreaterThan(faultsEndedAt));
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(100);
			assertThat(lostAnswers.lost()).as("answers lost").isPositive();
		}
	}

	/**
	 * Answers lost now and then and nothing else: a lease longer than the run, so that a
	 * key left on a node at any time is still there at the end, and no loss to report.
	 */
	@Test
	void lostAnswersAloneNeverMakeTwoHoldersNorLeaveAKeyNorReportALoss(@TempDir Path directory) throws Exception {
		HistoryRun.Settings settings = settings();
		settings.lease = Duration.ofSeconds(8);
		settings.wait = Duration.ofSeconds(8);
		settings.runTime = Duration.ofSeconds(6);
		try (HistoryRun run = HistoryRun.start(settings, proxyPorts(), this.witness, directory);
				LostAnswers lostAnswers = new LostAnswers(this.proxies, PREFIX + "history:")) {
			run.awaitFinished();
			lostAnswers.close();
			List<String> left = keysLeft(settings);
			HistoryReport report = run.finish(this.witness);
			int lossesReported = run.lossesReported();
			System.out.println(report.summary("Redlock on 5 nodes, answers lost now and then") + "; answers lost "
					+ lostAnswers.lost() + "; locks reported lost " + lossesReported);
			assertThat(report.violations()).isEmpty();
			assertThat(report.lostUpdates()).isZero();
			assertThat(left).as("keys on the nodes after every holder released").isEmpty();
			assertThat(report.lostAtUnlock()).as("unlocks that reported a loss").isZero();
			assertThat(lossesReported).as("locks reported lost").isZero();
			assertThat(report.believedHeld()).as("sections held throughout").isGreaterThan(100);
			assertThat(lostAnswers.lost()).as("answers lost").isGreaterThan(5);
		}
	}

	private static HistoryRun.Settings settings() {
		HistoryRun.Settings settings = new HistoryRun.Settings(LockProtocol.TOKEN);
		settings.refusingInEvenProcesses = true;
		settings.linger = Duration.ofSeconds(3);
		settings.lateTokens = 0.5;
		return settings;
	}

	private List<Integer> proxyPorts() {
		return this.proxies.stream().map(TcpProxy::port).toList();
	}

	/**
	 * Return the lock keys some node still holds a few round trips after every worker's
	 * last release, while the workers are still up, with what is left of their time;
	 * waits until there are none, or {@link #SETTLED} has passed.
	 */
	private List<String> keysLeft(HistoryRun.Settings settings) throws InterruptedException {
		long deadline = System.nanoTime() + SETTLED.toNanos();
		while (true) {
			List<String> left = new ArrayList<>();
			for (int k = 0; k < settings.keys; k++) {
				for (int i = 0; i < this.nodes.size(); i++) {
					String key = PREFIX + "history:" + k;
					if (this.nodes.node(i).execute("GET", key) != null) {
						left.add(key + " on " + this.nodes.name(i) + " for " + this.nodes.node(i).execute("PTTL", key)
								+ " ms");
					}
				}
			}
			if (left.isEmpty() || System.nanoTime() - deadline > 0) {
				return left;
			}
			Thread.sleep(20);
		}
	}

}
