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
package io.github.setnxlock.redis.operator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.springframework.dao.DataAccessResourceFailureException;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * The operator calls of {@link LockOperations} over the nodes of Redlock: each call goes
 * to every node, and counts when a majority answered.
 *
 * @author setnx-lock authors
 */
final class RedlockOperations {

	/**
	 * How long a health check waits for the nodes: a node that connects or answers slower
	 * than that is shown down, so that a check never takes a node's connect or command
	 * timeout.
	 */
	private static final Duration HEALTH_WAIT = Duration.ofSeconds(2);

	/** Runs each node's health check, which blocks on its answer, beside the others. */
	private static final ExecutorService HEALTH_CHECKS = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "setnx-lock-redlock-health");
		thread.setDaemon(true);
		return thread;
	});

	private final List<String> names;

	private final List<RedisGateway> gateways;

	private final int quorum;

	RedlockOperations(List<String> names, List<RedisGateway> gateways) {
		this.names = names;
		this.gateways = gateways;
		this.quorum = gateways.size() / 2 + 1;
	}

	List<RedisGateway> gateways() {
		return this.gateways;
	}

	/**
	 * Load the scripts on every node; up while a majority answers.
	 * @return the number of scripts, with each node's state added to the details
	 */
	int checkHealth(Map<String, Object> details) {
		Map<String, String> nodes = new LinkedHashMap<>();
		List<CompletableFuture<Integer>> loads = new ArrayList<>();
		for (RedisGateway gateway : this.gateways) {
			// At once on every node, so that a frozen node costs its command timeout
			// once, not once per node after it.
			loads.add(CompletableFuture.supplyAsync(gateway::loadScripts, HEALTH_CHECKS));
		}
		int scripts = 0;
		int up = 0;
		long deadline = System.nanoTime() + HEALTH_WAIT.toNanos();
		for (int i = 0; i < loads.size(); i++) {
			try {
				scripts = loads.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				nodes.put(this.names.get(i), "up");
				up++;
			}
			catch (TimeoutException ex) {
				nodes.put(this.names.get(i), "down: no answer within " + HEALTH_WAIT.toMillis() + " ms");
			}
			catch (ExecutionException ex) {
				nodes.put(this.names.get(i), "down: " + RedisCall.describe(ex.getCause()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				nodes.put(this.names.get(i), "down: the health check was interrupted");
			}
		}
		details.put("nodes", nodes);
		if (up < this.quorum) {
			throw new DataAccessResourceFailureException("Only " + up + " of " + this.gateways.size()
					+ " Redis nodes answered (" + this.quorum + " needed): " + nodes);
		}
		return scripts;
	}

	/**
	 * Read the lock key on every node: held when a majority holds one owner token.
	 * @return the reading of the majority's key, its shortest time to live, without the
	 * value, and on how many nodes it lives; or of no key
	 */
	Reading read(LockKey key) {
		List<RedisGateway.KeyReading> readings = onEveryNode(key, "read", (gateway) -> gateway.read(key, true, false));
		Map<String, Integer> owners = new HashMap<>();
		for (RedisGateway.KeyReading reading : readings) {
			if (reading.value() != null) {
				owners.merge(WaiterMark.removedFrom(reading.value()), 1, Integer::sum);
			}
		}
		for (Map.Entry<String, Integer> owner : owners.entrySet()) {
			if (owner.getValue() >= this.quorum) {
				long ttl = readings.stream()
					.filter((reading) -> reading.value() != null
							&& WaiterMark.removedFrom(reading.value()).equals(owner.getKey()))
					.mapToLong(RedisGateway.KeyReading::ttlMillis)
					.min()
					.orElse(-2);
				return new Reading(new RedisGateway.KeyReading("string", ttl, owner.getKey(), null), owner.getValue());
			}
		}
		return new Reading(new RedisGateway.KeyReading("none", -2, null, null), 0);
	}

	/**
	 * A reading of a lock key, and on how many nodes it was found.
	 *
	 * @param key what the key holds
	 * @param nodes on how many nodes it lives
	 */
	record Reading(RedisGateway.KeyReading key, int nodes) {

		static Reading ofOne(RedisGateway.KeyReading key) {
			return new Reading(key, "none".equals(key.type()) ? 0 : 1);
		}

	}

	/**
	 * Force-release on every node.
	 * @return whether a key was deleted on any node, and the largest next token
	 */
	ForceReleaseReply forceRelease(LockKey key, Function<RedisGateway, CompletableFuture<ForceReleaseReply>> call) {
		List<ForceReleaseReply> replies = onEveryNode(key, "force-release", call);
		return new ForceReleaseReply(replies.stream().anyMatch(ForceReleaseReply::deleted),
				replies.stream().mapToLong(ForceReleaseReply::nextFencingToken).max().orElse(0));
	}

	private <T> List<T> onEveryNode(LockKey key, String action, Function<RedisGateway, CompletableFuture<T>> call) {
		List<CompletableFuture<T>> sent = new ArrayList<>();
		for (RedisGateway gateway : this.gateways) {
			sent.add(call.apply(gateway));
		}
		List<T> answers = new ArrayList<>();
		StringBuilder failures = new StringBuilder();
		RuntimeException cause = null;
		for (int i = 0; i < sent.size(); i++) {
			try {
				answers.add(LockEngine.awaitUninterrupted(sent.get(i)));
			}
			catch (RuntimeException ex) {
				cause = (cause != null) ? cause : ex;
				failures.append("; ").append(this.names.get(i)).append(" failed: ").append(RedisCall.describe(ex));
			}
		}
		if (answers.size() < this.quorum) {
			throw new LockAccessException(key.key(),
					"Could not " + action + " lock '" + key.key() + "': only " + answers.size() + " of "
							+ this.gateways.size() + " Redis nodes answered (" + this.quorum + " needed)" + failures,
					cause);
		}
		return answers;
	}

}
