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
package io.github.setnxlock.redis.protocol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * The Redlock algorithm of the Redis distributed-locks page, on the token protocol over N
 * independent masters: every command goes to all nodes at once (each node has its own
 * {@link TokenLockCommands} and connection, so a frozen node stalls only its own calls),
 * and a call is decided on a majority {@code Q = N/2 + 1} as soon as the answers settle
 * it, or when the node timeout ends, when a node that has not answered counts as failed
 * and is named in the error. Internal API.
 * <ul>
 * <li>Acquired when {@code Q} nodes said yes before the lease, counted from the earliest
 * send to the {@code Q} of them sent to last, less the drift allowance
 * ({@link Lease#deadlineNanos()}), ended (the page's {@code T1}, taken per node, so that
 * a first connection to one node does not count against the others); otherwise every node
 * that said yes is released, and answers that come after the decision release (or
 * abandon) what they took.</li>
 * <li>Release, renewal and the waiter's mark go to every node; a hold stays valid while
 * {@code Q} nodes extend it. A renewal never writes the key again where it is missing: a
 * key that was removed from a node never comes back there, which fencing relies on.</li>
 * </ul>
 * <p>
 * <b>Fencing.</b> No single counter exists, so a token is drawn in two phases: read on
 * every node, while the key is the holder's there, the larger of the node's counter and
 * its clock in microseconds; take one more than the largest of {@code Q} answers; write
 * it on every node, while the key is the holder's and only where it raises the counter;
 * return it once {@code Q} nodes stored it. No later holder's token undercuts an earlier
 * one: an earlier draw's write set and a later draw's read set are majorities, so they
 * share a node; on that node the two holders' keys lived at different times (one value
 * per key, and a key never re-appears on a node after it was removed, since nothing
 * writes it again), and each draw reads and writes inside its own key's life there, so
 * the later draw reads at least the earlier token and returns more. Two draws cannot
 * interleave the other way round on two nodes, since each reads before it writes, so
 * draws are totally ordered. A paused or stale holder cannot draw: it needs its key on a
 * majority, which every later holder's majority intersects.
 * <p>
 * <b>The one clock assumption.</b> A node restarted without its data (or whose counter's
 * retention ended) has forgotten the counter, and answers its clock instead. Tokens stay
 * increasing as long as such a node stays down longer than the Redis servers' clocks
 * disagree: the Redis page's delayed restart (a node rejoins only after the longest
 * lease, seconds) is far longer than the disagreement of synchronised clocks
 * (milliseconds), so the rule that keeps the lock safe keeps the tokens increasing too.
 *
 * @author setnx-lock authors
 */
public final class RedlockCommands implements LockCommands {

	/** How long the first call waits for nodes still connecting, at least. */
	private static final long CONNECT_MILLIS = 1000;

	private static final Log logger = LogFactory.getLog(RedlockCommands.class);

	final List<String> names;

	final List<TokenLockCommands> nodes;

	final long nodeTimeoutMillis;

	private volatile Consumer<LockListener.NodeFailure> nodeFailures = (failure) -> {
	};

	private final RedlockFencing fencing;

	private final RedlockRenewals renewals;

	final RedlockCleanups cleanups;

	private volatile CompletableFuture<?> connected;

	/**
	 * Create the protocol over the nodes.
	 * @param names each node's name for errors and logs ({@code host:port}, never its
	 * credentials), in node order
	 * @param gateways each node's way into Redis
	 * @param nodeTimeout how long a node has to answer before it counts as failed
	 * @param fenceRetention how long a fencing counter outlives a lease
	 * @param releaseChannel the channel releases are announced on
	 */
	public RedlockCommands(List<String> names, List<RedisGateway> gateways, Duration nodeTimeout,
			Duration fenceRetention, String releaseChannel) {
		if (names.size() != gateways.size() || gateways.size() < 3 || gateways.size() > 63) {
			throw new IllegalArgumentException(
					"Redlock needs between 3 and 63 nodes, each with a name, but got " + gateways.size());
		}
		this.names = List.copyOf(names);
		List<TokenLockCommands> nodes = new ArrayList<>(gateways.size());
		for (RedisGateway gateway : gateways) {
			nodes.add(new TokenLockCommands(gateway, fenceRetention, releaseChannel));
		}
		this.nodes = List.copyOf(nodes);
		this.nodeTimeoutMillis = Math.max(1, nodeTimeout.toMillis());
		this.cleanups = new RedlockCleanups(this.nodes, this.names, this.nodeTimeoutMillis);
		this.fencing = new RedlockFencing(this, fenceRetention.toMillis());
		this.renewals = new RedlockRenewals(this);
	}

	<T, R> CompletableFuture<R> onEveryNode(IntFunction<CompletableFuture<T>> call, Quorum.Decision<T, R> decision) {
		return Quorum.send(this.names, this.nodeTimeoutMillis, call, new Reported<>(decision));
	}

	/**
	 * Set who hears of each node that failed its part of a call (the engine, which tells
	 * the listeners on its events thread).
	 * @param nodeFailures called once per failed node and call, on a client's thread
	 */
	public void onNodeFailure(Consumer<LockListener.NodeFailure> nodeFailures) {
		this.nodeFailures = Objects.requireNonNull(nodeFailures, "nodeFailures must not be null");
	}

	private void report(String node, boolean timedOut, String cause) {
		try {
			this.nodeFailures.accept(new LockListener.NodeFailure(node, timedOut, cause));
		}
		catch (RuntimeException ex) {
			logger.warn("Could not report the failure of Redis node " + node, ex);
		}
	}

	/**
	 * A decision that reports each node that failed its part of the call: at the
	 * decision, the nodes that had failed or timed out; afterwards, a node that was still
	 * to answer and then failed (a frozen node's command timing out in its client), each
	 * node once.
	 */
	private final class Reported<T, R> implements Quorum.Decision<T, R> {

		private final Quorum.Decision<T, R> decision;

		private final boolean[] reported = new boolean[RedlockCommands.this.names.size()];

		Reported(Quorum.Decision<T, R> decision) {
			this.decision = decision;
		}

		@Override
		public R decide(Tally<T> tally) {
			return this.decision.decide(tally);
		}

		@Override
		public void settled(R outcome, Tally<T> tally) {
			for (int i = 0; i < tally.size(); i++) {
				if (tally.failed(i) && once(i)) {
					report(RedlockCommands.this.names.get(i), tally.timedOut(i), tally.describe(i));
				}
			}
			this.decision.settled(outcome, tally);
		}

		@Override
		public void late(R outcome, int node, T answer, Throwable failure) {
			if (failure != null && once(node)) {
				report(RedlockCommands.this.names.get(node), RedisCall.isTimeout(failure),
						"failed: " + RedisCall.describe(failure));
			}
			this.decision.late(outcome, node, answer, failure);
		}

		private synchronized boolean once(int node) {
			boolean first = !this.reported[node];
			this.reported[node] = true;
			return first;
		}

	}

	/**
	 * Connect to the nodes, once, before the first acquisition (or read): connecting
	 * happens on the first call to a node and may take longer than a short lease, or the
	 * node timeout, on a machine that has just started, and an acquisition counts its
	 * lease from before the connection. Done once every node answered or failed, or
	 * {@link #CONNECT_MILLIS} (at least three node timeouts) after the first answer, so
	 * that one node still connecting does not count as failed for the first calls, and a
	 * node frozen at start-up delays them only once.
	 */
	private CompletableFuture<?> connected(LockKey key) {
		CompletableFuture<?> connected = this.connected;
		if (connected == null) {
			synchronized (this) {
				if (this.connected == null) {
					this.connected = Quorum
						.send(this.names, Math.max(CONNECT_MILLIS, 3 * this.nodeTimeoutMillis),
								(i) -> this.nodes.get(i).gateway.value(key),
								(tally) -> (tally.pending() == 0) ? Boolean.TRUE : null)
						.exceptionally((ex) -> Boolean.FALSE);
				}
				connected = this.connected;
			}
		}
		return connected;
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return connected(key).thenCompose((ignored) -> acquireNow(key, ownerToken, lease, waits));
	}

	private CompletableFuture<Attempt> acquireNow(LockKey key, String ownerToken, Duration lease, boolean waits) {
		// A retry keeps the token: see RedlockCleanups for why a node's earlier cleanups
		// must have answered first.
		return onEveryNode(
				(i) -> this.cleanups.after(i, key, ownerToken,
						() -> this.nodes.get(i).acquire(key, ownerToken, lease, waits)),
				new RedlockAcquisition(this.cleanups, this.nodes.size(), key, ownerToken, lease.toMillis()));
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		return this.fencing.draw(key, lease);
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return connected(key)
			.thenCompose((ignored) -> onEveryNode((i) -> this.nodes.get(i).markHolder(key), (tally) -> {
				int free = tally.count((answer) -> answer == Attempt.LEFT_FREE);
				return (free >= tally.quorum()) ? Attempt.LEFT_FREE
						: RedlockAcquisition.heldOrUndecided(key, "mark the holder of", tally, free);
			}));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return onEveryNode((i) -> this.nodes.get(i).release(key, lease), (tally) -> released(key, lease, tally));
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return onEveryNode((i) -> this.nodes.get(i).releaseKeeping(key, lease, keep),
				(tally) -> released(key, lease, tally));
	}

	/**
	 * Decide a release: lost only when more of the nodes the key was known on say it is
	 * not the holder's than a majority leaves room for (nodes it never reached say so
	 * too, and prove nothing); otherwise released once every node answered or timed out,
	 * the nodes that did not named at WARN, since their keys end with the lease. Failed
	 * only when no majority answered at all.
	 */
	private static ReleaseResult released(LockKey key, Lease lease, Tally<ReleaseResult> tally) {
		int released = tally.count(ReleaseResult::released);
		ReleaseResult done = (tally.count((result) -> result == ReleaseResult.RELEASED_AND_ANNOUNCED) > 0)
				? ReleaseResult.RELEASED_AND_ANNOUNCED : ReleaseResult.RELEASED;
		if (released >= tally.quorum()) {
			return done;
		}
		long all = (tally.size() == 64) ? -1L : (1L << tally.size()) - 1;
		long knownOn = (lease.nodeMask() != 0) ? lease.nodeMask() & all : all;
		int notOurs = Long.bitCount(tally.mask((result) -> result == ReleaseResult.NOT_OURS) & knownOn);
		if (notOurs > Long.bitCount(knownOn) - tally.quorum()) {
			return ReleaseResult.NOT_OURS;
		}
		if (tally.pending() > 0) {
			return null;
		}
		if (tally.answered() < tally.quorum()) {
			throw tally.unreachable(key, "release", "released on " + released);
		}
		if (tally.failed() > 0 && logger.isWarnEnabled()) {
			logger.warn(
					tally
						.unreachable(key, "release",
								"released on " + released
										+ "; the key ends with its lease on the nodes that did not answer")
						.getMessage());
		}
		return done;
	}

	/**
	 * Undo an acquisition on every node. {@code true} or {@code false} (whether any node
	 * deleted the key) only once every node answered; failed while any did not, so that
	 * the caller sends it again until the lease ends. Each node's answer also ends the
	 * hold-back of a later attempt's {@code SET} there ({@link RedlockCleanups}).
	 */
	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return onEveryNode((i) -> {
			CompletableFuture<Boolean> abandoned = this.nodes.get(i).abandon(key, ownerToken);
			this.cleanups.track(i, key, ownerToken, abandoned);
			return abandoned;
		}, (tally) -> {
			if (tally.pending() > 0) {
				return null;
			}
			if (tally.failed() > 0) {
				throw tally.unreachable(key, "undo an acquisition of",
						"deleted on " + tally.count(Boolean::booleanValue));
			}
			return tally.count(Boolean::booleanValue) > 0;
		});
	}

	/**
	 * Decide whether any node's answer matches: {@code true} at the first that does,
	 * {@code false} once every node answered and none did, failed when none did but some
	 * could not answer.
	 */
	private static <T> Boolean anyNode(LockKey key, Tally<T> tally, Predicate<? super T> matches, String action,
			String found) {
		if (tally.count(matches) > 0) {
			return true;
		}
		if (tally.pending() > 0) {
			return null;
		}
		if (tally.failed() > 0) {
			throw tally.unreachable(key, action, found);
		}
		return false;
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		return this.renewals.renew(keys, leases, lease);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return connected(key)
			.thenCompose((ignored) -> onEveryNode((i) -> this.nodes.get(i).gateway.value(key), (tally) -> {
				int most = 0;
				for (int i = 0; i < tally.size(); i++) {
					String value = tally.answer(i);
					if (value != null) {
						String owner = stripMark(value);
						most = Math.max(most, tally.count((other) -> other != null && stripMark(other).equals(owner)));
					}
				}
				if (most >= tally.quorum()) {
					return true;
				}
				if (most + tally.pending() >= tally.quorum()) {
					return null;
				}
				// Nodes that failed may hold the value a majority needs.
				if (most + tally.pending() + tally.failed() < tally.quorum()) {
					return false;
				}
				if (tally.pending() > 0) {
					return null;
				}
				throw tally.unreachable(key, "read", "held on " + most + " of those that answered");
			}));
	}

	private static String stripMark(String value) {
		return value.endsWith("!") ? value.substring(0, value.length() - 1) : value;
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		String marked = lease.value() + "!";
		return onEveryNode((i) -> this.nodes.get(i).gateway.value(key),
				(tally) -> anyNode(key, tally, marked::equals, "read", "no waiter's mark among the answers"));
	}

	@Override
	public boolean reChecksQuickly() {
		return false;
	}

	@Override
	public String toString() {
		return "RedlockCommands" + this.names;
	}

}
