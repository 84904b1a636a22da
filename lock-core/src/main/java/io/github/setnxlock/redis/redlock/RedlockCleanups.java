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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.token.TokenLockCommands;

/**
 * The per-node cleanups of {@link RedlockCommands} that may still delete a key, and the
 * rule that keeps them from deleting what a later call counted: the engine retries an
 * acquisition with the same owner token, and a cleanup deletes by key and token, so a
 * cleanup of an earlier attempt that runs after a later attempt's {@code SET} on the same
 * node would delete the key that attempt counted. Nothing orders the two on the wire when
 * a node is frozen past the client's command timeout (the earlier attempt's cleanup is
 * sent only then, after the later {@code SET}), while a connection is being opened, or
 * over Jedis. So a node's next acquisition of a key with a token waits until that node
 * has answered every cleanup of that key and token (and the answer of the attempt whose
 * cleanup may follow); a node that does not within the node timeout counts as failed for
 * the new attempt, which is never sent there. A renewal does not count a node with such a
 * cleanup under way either.
 * <p>
 * Holding back keeps the engine's one token per acquisition (a fresh token per attempt
 * would have to reach the engine's undo of each attempt and the waiter's mark, and change
 * what single-node locking does), at the price of a node that lags behind sitting out the
 * retries until it answers.
 *
 * @author setnx-lock authors
 */
final class RedlockCleanups {

	private static final Log logger = LogFactory.getLog(RedlockCleanups.class);

	private final List<TokenLockCommands> nodes;

	private final List<String> names;

	private final long nodeTimeoutMillis;

	private final List<ConcurrentHashMap<String, CompletableFuture<Void>>> pending;

	RedlockCleanups(List<TokenLockCommands> nodes, List<String> names, long nodeTimeoutMillis) {
		this.nodes = nodes;
		this.names = names;
		this.nodeTimeoutMillis = nodeTimeoutMillis;
		List<ConcurrentHashMap<String, CompletableFuture<Void>>> pending = new ArrayList<>(nodes.size());
		for (int i = 0; i < nodes.size(); i++) {
			pending.add(new ConcurrentHashMap<>());
		}
		this.pending = List.copyOf(pending);
	}

	private static String id(LockKey key, String token) {
		return key.redisKey() + ' ' + token;
	}

	/**
	 * Record work on a node that may still delete the key while it holds the token: later
	 * calls for them on that node wait until it is done, however it ends.
	 */
	void track(int node, LockKey key, String token, CompletableFuture<?> work) {
		CompletableFuture<Void> done = work.handle((result, failure) -> null);
		String id = id(key, token);
		ConcurrentHashMap<String, CompletableFuture<Void>> onNode = this.pending.get(node);
		CompletableFuture<Void> all = onNode.compute(id, (ignored, earlier) -> (earlier == null || earlier.isDone())
				? done : CompletableFuture.allOf(earlier, done));
		all.whenComplete((result, failure) -> onNode.remove(id, all));
	}

	/**
	 * Delete the key on a node while it holds the token, sent again until the node
	 * answers or the given time (the end of the lease that was asked for) has passed.
	 * @return done once the node answered or the cleanup gave up
	 */
	CompletableFuture<Void> abandon(int node, LockKey key, String token, long untilNanos) {
		return sendUntil(node, key, token, untilNanos, false, () -> this.nodes.get(node).abandon(key, token));
	}

	/**
	 * Send a call that deletes (or shortens) the key on a node while it holds the token,
	 * again after each failure until the node answers or the given time has passed, by
	 * when a key it is for has expired. Tracked as a cleanup ({@link #track}).
	 * @param backOff whether the pause between attempts doubles, for calls that need not
	 * be answered soon to let a retry through: a node that stays down then costs a few
	 * attempts per call, not one per node timeout
	 * @return done once the node answered or the cleanup gave up
	 */
	CompletableFuture<Void> sendUntil(int node, LockKey key, String token, long untilNanos, boolean backOff,
			Supplier<CompletableFuture<?>> call) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		track(node, key, token, done);
		sendUntil(node, key, untilNanos, backOff ? this.nodeTimeoutMillis : 0, call, done);
		return done;
	}

	private void sendUntil(int node, LockKey key, long untilNanos, long pauseMillis,
			Supplier<CompletableFuture<?>> call, CompletableFuture<Void> done) {
		CompletableFuture<?> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException ex) {
			sent = CompletableFuture.failedFuture(ex);
		}
		sent.whenComplete((answer, error) -> {
			Throwable failure = (error instanceof CompletionException && error.getCause() != null) ? error.getCause()
					: error;
			if (failure == null) {
				done.complete(null);
				return;
			}
			if (RedisCall.isClosed(failure) || System.nanoTime() - untilNanos >= 0) {
				// Closed, or the lease is over: a key it took has expired.
				logger.warn(
						"Could not undo an acquisition or release of lock '" + key.key() + "' on Redis node "
								+ this.names.get(node) + "; if it holds the key there, the key ends with its lease",
						failure);
				done.complete(null);
				return;
			}
			long pause = (pauseMillis > 0) ? pauseMillis : this.nodeTimeoutMillis;
			try {
				RedlockTimer.schedule(
						() -> sendUntil(node, key, untilNanos, (pauseMillis > 0) ? 2 * pauseMillis : 0, call, done),
						pause);
			}
			catch (RejectedExecutionException ex) {
				done.complete(null);
			}
		});
	}

	/**
	 * Send a call for the key and token to a node once the node has answered every
	 * cleanup of them, or fail it (as never sent) when it has not within the node
	 * timeout, or when the call was decided without the node meanwhile: a node that
	 * answers its cleanups late would otherwise receive at once every attempt held back
	 * in the meantime, each to be undone.
	 * @param decided done once the call this node's part belongs to is decided
	 */
	<T> CompletableFuture<T> after(int node, LockKey key, String token, CompletableFuture<?> decided,
			Supplier<CompletableFuture<T>> call) {
		CompletableFuture<Void> earlier = this.pending.get(node).get(id(key, token));
		if (earlier == null || earlier.isDone()) {
			return call.get();
		}
		return earlier.copy().orTimeout(this.nodeTimeoutMillis, TimeUnit.MILLISECONDS).handle((ignored, failure) -> {
			if (failure == null && !decided.isDone()) {
				return call.get();
			}
			String why = (failure == null)
					? "the attempt was decided before an earlier attempt's cleanup there was answered"
					: "an earlier attempt's cleanup was not answered within " + this.nodeTimeoutMillis + " ms";
			return CompletableFuture.<T>failedFuture(new LockAccessException(key.key(), why, null));
		}).thenCompose((answer) -> answer);
	}

	/** Whether a cleanup of the key and token is under way on the node. */
	boolean underWay(int node, LockKey key, String token) {
		CompletableFuture<Void> earlier = this.pending.get(node).get(id(key, token));
		return earlier != null && !earlier.isDone();
	}

}
