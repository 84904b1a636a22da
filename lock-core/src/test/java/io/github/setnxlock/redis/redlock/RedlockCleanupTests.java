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

package io.github.setnxlock.redis.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.SharedResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The parts of Redlock that undo what a call took: a decision whose cleanup throws still
 * completes its call, and a node's cleanup is sent again until the node answers.
 * <p>
 * The cores are held for the whole class, not for its two tests with frozen nodes: a
 * test's lock is taken on the worker that runs the class, which then waits, idle, while
 * the classes that hold the cores alone run one after another.
 *
 * @author setnx-lock authors
 */
@ResourceLock(value = SharedResources.CORES, mode = ResourceAccessMode.READ)
class RedlockCleanupTests {

	private static final List<String> NAMES = List.of("a:1", "b:2", "c:3");

	@Test
	void aCleanupThatThrowsStillCompletesTheCall() throws Exception {
		Quorum.Decision<Integer, String> throwingCleanup = new Quorum.Decision<>() {

			@Override
			public String decide(Tally<Integer> tally) {
				return (tally.answered() >= tally.quorum()) ? "decided" : null;
			}

			@Override
			public void settled(String outcome, Tally<Integer> tally) {
				throw new IllegalStateException("the client is closed");
			}

		};
		CompletableFuture<String> decided = Quorum
			.open(NAMES, 1000, CompletableFuture::completedFuture, throwingCleanup, new LaggingNodes(NAMES.size()))
			.result();
		assertThat(decided.get(10, TimeUnit.SECONDS)).isEqualTo("decided");
	}

	@Test
	void aFailedDecisionWhoseCleanupThrowsStillFailsTheCall() {
		Quorum.Decision<Integer, String> failing = new Quorum.Decision<>() {

			@Override
			public String decide(Tally<Integer> tally) {
				throw new IllegalArgumentException("no majority");
			}

			@Override
			public void settled(String outcome, Tally<Integer> tally) {
				throw new IllegalStateException("the client is closed");
			}

		};
		CompletableFuture<String> decided = Quorum
			.open(NAMES, 1000, CompletableFuture::completedFuture, failing, new LaggingNodes(NAMES.size()))
			.result();
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> decided.get(10, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void aNodesCleanupIsSentAgainUntilTheNodeAnswers() throws Exception {
		try (RedisNodes nodes = RedisNodes.start(3); Nodes redlock = new Nodes(nodes)) {
			LockKey key = LockKey.of("lock:", "undone");
			RedisServer lagging = nodes.node(1);
			lagging.execute("SET", key.redisKey(), "token");
			lagging.execute("CONFIG", "RESETSTAT");
			nodes.pause(1);
			CompletableFuture<Void> undone;
			try {
				undone = redlock.commands.cleanups.abandon(1, key, "token",
						System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
				assertThat(redlock.commands.cleanups.underWay(1, key, "token")).isTrue();
				// Long enough for several command timeouts, each followed by another
				// attempt.
				Thread.sleep(1500);
				assertThat(undone).isNotDone();
			}
			finally {
				nodes.resume(1);
			}
			undone.get(10, TimeUnit.SECONDS);
			assertThat(lagging.execute("EXISTS", key.redisKey())).isEqualTo(0L);
			assertThat(redlock.commands.cleanups.underWay(1, key, "token")).isFalse();
			// Every attempt written while it was frozen runs once it goes on.
			long releases = lagging.commandStat("evalsha", "calls") + lagging.commandStat("eval", "calls")
					+ lagging.commandStat("delifeq", "calls") + lagging.commandStat("delex", "calls");
			assertThat(releases).isGreaterThanOrEqualTo(2);
		}
	}

	@Test
	void aNodesCleanupEndsWhenItsRegistryAndConnectionAreClosedNotAtTheEndOfTheLease() throws Exception {
		try (RedisNodes nodes = RedisNodes.start(3); Nodes redlock = new Nodes(nodes)) {
			LockKey key = LockKey.of("lock:", "closed");
			nodes.pause(1);
			try {
				CompletableFuture<Void> undone = redlock.commands.cleanups.abandon(1, key, "token",
						System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
				Thread.sleep(500);
				assertThat(undone).isNotDone();
				// As an application shuts down: the registry closes, then its
				// connections.
				redlock.close(1);
				// Every attempt is refused now: nothing is left to retry for.
				undone.get(5, TimeUnit.SECONDS);
				assertThat(redlock.commands.cleanups.underWay(1, key, "token")).isFalse();
			}
			finally {
				nodes.resume(1);
			}
		}
	}

	/**
	 * Redlock's commands on three nodes, each through a gateway whose command timeout is
	 * shorter than a test's freeze (so that each attempt fails), connected before a test
	 * freezes one.
	 */
	private static final class Nodes implements AutoCloseable {

		private final List<LettuceConnectionFactory> factories = new ArrayList<>();

		final List<RedisGateway> gateways = new ArrayList<>();

		final RedlockCommands commands;

		Nodes(RedisNodes nodes) throws Exception {
			List<String> names = new ArrayList<>();
			for (int i = 0; i < nodes.size(); i++) {
				LettuceConnectionFactory factory = RedisConnections.create(nodes.node(i), Duration.ofMillis(200));
				this.factories.add(factory);
				this.gateways.add(new RedisGateway(RedisConnections.template(factory), RedlockCommands.NODE_SCRIPTS));
				names.add(nodes.name(i));
			}
			this.commands = new RedlockCommands(names, this.gateways, Duration.ofMillis(100), Duration.ZERO,
					Duration.ofHours(1), "released");
			for (int i = 0; i < nodes.size(); i++) {
				assertThat(this.commands.nodes.get(i)
					.abandon(LockKey.of("lock:", "warm-up"), "token")
					.get(10, TimeUnit.SECONDS)).isFalse();
			}
		}

		void close(int node) {
			this.gateways.get(node).close();
			RedisConnections.destroy(this.factories.set(node, null));
		}

		@Override
		public void close() {
			this.gateways.forEach(RedisGateway::close);
			this.factories.stream().filter(Objects::nonNull).forEach(RedisConnections::destroy);
		}

	}

}
