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
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.WaiterMark;
import io.github.setnxlock.redis.token.TokenLockCommands;

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
 * <b>Fencing.</b> No single counter exists, so a token is drawn in two phases, read on a
 * majority and written to a majority ({@link RedlockFencing}, which says why tokens still
 * only increase).
 * <p>
 * <b>Restarts.</b> A node restarted without its data counts for no acquisition and no
 * draw until it has been up for the restart delay ({@link RedlockRestarts}).
 *
 * @author setnx-lock authors
 */
public final class RedlockCommands implements LockCommands {

	final List<String> names;

	final List<TokenLockCommands> nodes;

	final List<RedisGateway> gateways;

	final long nodeTimeoutMillis;

	private final NodeFailures failures;

	private final LaggingNodes lagging;

	private final RedlockFencing fencing;

	private final RedlockRenewals renewals;

	final RedlockCleanups cleanups;

	private final RedlockHoldEnds ends;

	final RedlockRestarts restarts;

	private final FirstContact firstContact = new FirstContact(this);

	/** The acquisitions under way, by key and token, to say whom they wait for. */
	private final ConcurrentHashMap<String, Quorum<?, ?>> acquiring = new ConcurrentHashMap<>();

	/**
	 * The scripts each node runs, which its gateway loads: the token protocol's and the
	 * fencing draw's.
	 */
	public static final List<LockScript> NODE_SCRIPTS = Stream
		.concat(TokenLockCommands.SCRIPTS.stream(), Stream.of(RedlockFencing.FENCE_READ, RedlockFencing.FENCE_WRITE))
		.toList();

	/**
	 * Create the protocol over the nodes.
	 * @param names each node's name for errors and logs ({@code host:port}, never its
	 * credentials), in node order
	 * @param gateways each node's way into Redis
	 * @param nodeTimeout how long a node has to answer before it counts as failed
	 * @param restartDelay how long a restarted node sits out acquisitions and fencing
	 * draws ({@link RedlockRestarts}); zero not to check for restarts
	 * @param fenceRetention how long a fencing counter outlives a lease
	 * @param releaseChannel the channel releases are announced on
	 */
	public RedlockCommands(List<String> names, List<RedisGateway> gateways, Duration nodeTimeout, Duration restartDelay,
			Duration fenceRetention, String releaseChannel) {
		if (names.size() != gateways.size() || gateways.size() < 3 || gateways.size() > 63) {
			throw new IllegalArgumentException(
					"Redlock needs between 3 and 63 nodes, each with a name, but got " + gateways.size());
		}
		this.names = List.copyOf(names);
		this.failures = new NodeFailures(this.names);
		this.lagging = new LaggingNodes(this.names.size());
		this.gateways = List.copyOf(gateways);
		this.nodes = this.gateways.stream()
			.map((gateway) -> new TokenLockCommands(gateway, fenceRetention, releaseChannel))
			.toList();
		this.nodeTimeoutMillis = Math.max(1, nodeTimeout.toMillis());
		this.cleanups = new RedlockCleanups(this.nodes, this.names, this.nodeTimeoutMillis);
		this.ends = new RedlockHoldEnds(this);
		this.restarts = new RedlockRestarts(this.gateways, this.names, restartDelay.toMillis(), this.nodeTimeoutMillis);
		this.fencing = new RedlockFencing(this, fenceRetention.toMillis());
		this.renewals = new RedlockRenewals(this);
	}

	/**
	 * Send a call to every node and decide on the answers; a node whose call fails may
	 * have a new server behind it, and counts for no acquisition or draw until its uptime
	 * was read again ({@link RedlockRestarts}).
	 */
	<T, R> CompletableFuture<R> onEveryNode(IntFunction<CompletableFuture<T>> call, Quorum.Decision<T, R> decision) {
		return quorum(this.nodeTimeoutMillis, call, decision).result();
	}

	<T, R> Quorum<T, R> quorum(long timeoutMillis, IntFunction<CompletableFuture<T>> call,
			Quorum.Decision<T, R> decision) {
		return Quorum.open(this.names, timeoutMillis, (i) -> {
			CompletableFuture<T> answer = call.apply(i);
			answer.whenComplete((ignored, failure) -> {
				if (failure != null) {
					this.restarts.failed(i, failure);
				}
			});
			return answer;
		}, this.failures.reporting(decision), this.lagging);
	}

	/**
	 * Set who hears of each node that failed its part of a call (the engine, which tells
	 * the listeners on its events thread).
	 * @param nodeFailures called once per failed node and call, on a client's thread
	 */
	public void onNodeFailure(Consumer<LockListener.NodeFailure> nodeFailures) {
		this.failures.tell(nodeFailures);
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return this.firstContact.made(key).thenCompose((ignored) -> acquireNow(key, ownerToken, lease, waits));
	}

	private CompletableFuture<Attempt> acquireNow(LockKey key, String ownerToken, Duration lease, boolean waits) {
		// A retry keeps the token: see RedlockCleanups for why a node's earlier cleanups
		// must have answered first.
		CompletableFuture<Attempt> decided = new CompletableFuture<>();
		Quorum<Attempt, Attempt> quorum = quorum(this.nodeTimeoutMillis,
				(i) -> this.cleanups.after(i, key, ownerToken, decided,
						() -> this.nodes.get(i).acquire(key, ownerToken, lease, waits)),
				new RedlockAcquisition(this.cleanups, this.ends, this.restarts, this.nodes.size(), key, ownerToken,
						lease.toMillis()));
		quorum.result().whenComplete((attempt, failure) -> decided.complete(attempt));
		String id = RedlockHoldEnds.id(key, ownerToken);
		this.acquiring.put(id, quorum);
		quorum.result().whenComplete((attempt, failure) -> this.acquiring.remove(id, quorum));
		return quorum.result();
	}

	/**
	 * Name the nodes an acquisition under way still waits for (or, before the first
	 * contact is done, the nodes that have not answered it), so that a wait that ends
	 * before the node timeout does says which nodes were silent.
	 */
	@Override
	public String unanswered(LockKey key, String ownerToken) {
		Quorum<?, ?> quorum = this.acquiring.get(RedlockHoldEnds.id(key, ownerToken));
		if (quorum == null) {
			quorum = this.firstContact.underWay();
		}
		return (quorum != null) ? quorum.unanswered() : null;
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		return this.fencing.draw(key, lease);
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return this.firstContact.made(key)
			.thenCompose((ignored) -> onEveryNode((i) -> this.nodes.get(i).markHolder(key), (tally) -> {
				int free = tally.count((answer) -> answer == Attempt.LEFT_FREE);
				return (free >= tally.quorum()) ? Attempt.LEFT_FREE
						: RedlockAcquisition.heldOrUndecided(key, "mark the holder of", tally, free);
			}));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.ends.release(key, lease);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.ends.releaseKeeping(key, lease, keep);
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return this.ends.abandon(key, ownerToken);
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		return this.renewals.renew(keys, leases, lease);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.firstContact.made(key)
			.thenCompose((ignored) -> onEveryNode((i) -> this.gateways.get(i).value(key),
					(tally) -> RedlockDecisions.lockedOnMajority(key, tally)));
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return this.firstContact.made(key)
			.thenCompose(
					(ignored) -> onEveryNode((i) -> this.gateways.get(i).value(key), RedlockDecisions::ownerOnMajority))
			.thenApply((owner) -> owner.orElse(null));
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		String marked = WaiterMark.on(lease.value());
		return onEveryNode((i) -> this.gateways.get(i).value(key), (tally) -> RedlockDecisions.anyNode(key, tally,
				marked::equals, "read", "no waiter's mark among the answers"));
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
