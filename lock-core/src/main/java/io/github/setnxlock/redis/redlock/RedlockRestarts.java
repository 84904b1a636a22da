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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * The delayed-restart rule of the Redis distributed-locks page for
 * {@link RedlockCommands}: a node that restarted (and so may have forgotten keys that
 * holders still count on) counts for no acquisition and no fencing draw until it has been
 * up for the restart delay, the longest lease a holder may count on.
 * <p>
 * A node is up to date when the last {@code INFO server} read on it was sent after the
 * last event that may have put a new server behind it, and its {@code uptime_in_seconds}
 * then, plus the delay and the drift allowance, has passed. Such events are the first
 * contact, every connection the client opens (Lettuce tells, on the connection's event
 * loop, before any answer on it is handed over, so no answer of a new server can come in
 * first), and any failed call to the node. Until the read answers, the node does not
 * count: a few milliseconds after a reconnection, and nothing on the hot path, where no
 * extra command is sent. The uptime is the sound test, not the server's {@code run_id}: a
 * registry that first meets a node just restarted has no earlier {@code run_id} to
 * compare with. A node that refuses {@code INFO} (an ACL without {@code +info}) is taken
 * to have just restarted at each such event, and sits out a whole delay. A client that
 * does not tell its reconnections (Jedis, whose pool opens connections as it needs them)
 * leaves one gap: a restart that no call saw fail is found only at the next failure.
 * <p>
 * Its yes still counts for renewals: a renewal extends only a key that is there with the
 * holder's token, which on a restarted node was written after the restart, so the node
 * excludes other holders as any node does. What it forgot is only what came before.
 *
 * @author setnx-lock authors
 */
final class RedlockRestarts {

	private static final Log logger = LogFactory.getLog(RedlockRestarts.class);

	private final List<RedisGateway> gateways;

	private final List<String> names;

	private final long delayNanos;

	private final long retryMillis;

	private final List<NodeState> states = new ArrayList<>();

	RedlockRestarts(List<RedisGateway> gateways, List<String> names, long delayMillis, long retryMillis) {
		this.gateways = gateways;
		this.names = names;
		long delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
		// The drift allowance of a lease (see Lease#deadlineNanos), the other way round.
		this.delayNanos = (delayMillis > 0) ? delayNanos + delayNanos / 100 + TimeUnit.MILLISECONDS.toNanos(2) : 0;
		this.retryMillis = retryMillis;
		for (int i = 0; i < gateways.size(); i++) {
			this.states.add(new NodeState());
		}
	}

	/** Whether the rule is on: a delay of zero turns it off. */
	boolean enabled() {
		return this.delayNanos > 0;
	}

	/**
	 * Listen for the reconnections of every node's client, once, before the first
	 * contact.
	 */
	void listen() {
		if (enabled()) {
			for (int i = 0; i < this.gateways.size(); i++) {
				int node = i;
				if (!this.gateways.get(i).onReconnect(() -> suspect(node)) && logger.isDebugEnabled()) {
					logger.debug("The client of Redis node " + this.names.get(i) + " does not tell its reconnections: "
							+ "a restart is found by the first call there that fails");
				}
			}
		}
	}

	/**
	 * Return the nodes that may not count now for acquisitions and fencing draws.
	 * @return a bit per node
	 */
	long quarantined() {
		if (this.delayNanos == 0) {
			return 0;
		}
		long now = System.nanoTime();
		long mask = 0;
		for (int i = 0; i < this.states.size(); i++) {
			NodeState state = this.states.get(i);
			synchronized (state) {
				if (state.checked != state.generation || now - state.countsFromNanos < 0) {
					mask |= 1L << i;
				}
			}
		}
		return mask;
	}

	/**
	 * Note that a call to a node failed: unless the server answered it with an error, or
	 * it was never sent ({@link RedlockCleanups} held it back), a new server may be
	 * behind the node.
	 * @param node the node
	 * @param failure how the call failed
	 */
	void failed(int node, Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		boolean heldBack = cause instanceof LockAccessException && cause.getCause() == null;
		if (!heldBack && !isErrorReply(cause)) {
			suspect(node);
		}
	}

	/**
	 * Note that a new server may be behind a node: it does not count until a read of its
	 * uptime, sent from now on, has answered and the delay has passed.
	 * @param node the node
	 * @return done once a read sent after this has answered, or failed
	 */
	CompletableFuture<Void> suspect(int node) {
		if (this.delayNanos == 0) {
			return CompletableFuture.completedFuture(null);
		}
		NodeState state = this.states.get(node);
		CompletableFuture<Void> done;
		synchronized (state) {
			state.generation++;
			done = state.next;
			if (state.reading) {
				// The read under way may have been answered by the server before; the
				// one sent when it is over counts.
				return done;
			}
			state.reading = true;
		}
		read(node);
		return done;
	}

	private void read(int node) {
		NodeState state = this.states.get(node);
		long generation;
		synchronized (state) {
			generation = state.generation;
		}
		CompletableFuture<Long> uptime;
		try {
			uptime = this.gateways.get(node).uptimeSeconds();
		}
		catch (RuntimeException ex) {
			uptime = CompletableFuture.failedFuture(ex);
		}
		uptime.whenComplete((seconds, failure) -> answered(node, generation, seconds, failure));
	}

	private void answered(int node, long generation, Long seconds, Throwable failure) {
		long now = System.nanoTime();
		NodeState state = this.states.get(node);
		boolean refused = failure != null && isErrorReply(failure);
		boolean closed = failure != null && RedisCall.isClosed(failure);
		CompletableFuture<Void> done = null;
		boolean again;
		synchronized (state) {
			again = state.generation != generation || (failure != null && !refused);
			if (!again) {
				state.checked = generation;
				// Up at the latest since the answer less the uptime, which INFO rounds
				// down; taken as just restarted when it cannot tell.
				state.countsFromNanos = now + this.delayNanos
						- ((failure == null) ? TimeUnit.SECONDS.toNanos(seconds) : 0);
				state.reading = false;
				done = state.next;
				state.next = new CompletableFuture<>();
			}
		}
		if (!again) {
			long waitMillis = TimeUnit.NANOSECONDS.toMillis(state.countsFromNanos - now);
			if (refused) {
				logger.warn("Redis node " + this.names.get(node) + " refused INFO, so it counts as just restarted and "
						+ "rejoins Redlock in " + waitMillis + " ms", failure);
			}
			else if (waitMillis > 0 && logger.isWarnEnabled()) {
				logger.warn("Redis node " + this.names.get(node) + " has been up for " + seconds + " s only: it may "
						+ "have forgotten locks, so it counts for no acquisition until it rejoins Redlock in "
						+ waitMillis + " ms (the restart delay)");
			}
			done.complete(null);
			return;
		}
		if (failure == null) {
			read(node);
			return;
		}
		// Unreachable for now: every call there fails anyway. Its waiters go on, so that
		// a first contact does not wait for it; it is read again until it answers.
		CompletableFuture<Void> waiting;
		synchronized (state) {
			waiting = state.next;
			state.next = new CompletableFuture<>();
			state.reading = !closed;
		}
		waiting.complete(null);
		if (closed) {
			return;
		}
		try {
			RedlockTimer.schedule(() -> read(node), this.retryMillis);
		}
		catch (RejectedExecutionException ex) {
			synchronized (state) {
				state.reading = false;
			}
		}
	}

	/**
	 * Whether a failure is the server's error reply (or an answer without an uptime)
	 * rather than a lost connection.
	 */
	private static boolean isErrorReply(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IllegalArgumentException) {
				return true;
			}
			for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
				if (type.getName().equals("io.lettuce.core.RedisCommandExecutionException")
						|| type.getName().equals("redis.clients.jedis.exceptions.JedisDataException")) {
					return true;
				}
			}
		}
		return false;
	}

	/** What is known of one node; guarded by itself. */
	private static final class NodeState {

		/** Bumped at every event that may have put a new server behind the node. */
		long generation = 1;

		/** The generation of the last read that answered. */
		long checked;

		long countsFromNanos;

		boolean reading;

		/** Done when the next read answers. */
		CompletableFuture<Void> next = new CompletableFuture<>();

	}

}
