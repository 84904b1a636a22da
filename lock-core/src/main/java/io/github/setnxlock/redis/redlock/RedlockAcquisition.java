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
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * How {@link RedlockCommands} decides one acquisition: acquired once a majority said yes
 * within the lease; held by someone else, or failed naming the nodes, once no majority
 * can say yes; and what was taken on the way is released, late answers included.
 *
 * @author setnx-lock authors
 */
final class RedlockAcquisition implements Quorum.Decision<Attempt, Attempt> {

	private final RedlockCleanups cleanups;

	private final RedlockHoldEnds ends;

	private final RedlockRestarts restarts;

	private final LockKey key;

	private final String ownerToken;

	private final long leaseMillis;

	private final CompletableFuture<?>[] outstanding;

	/** Once acquired, the nodes still to answer, as a bit mask; guarded by this. */
	private long awaited;

	/** The nodes that answered after the decision, as a bit mask; guarded by this. */
	private long answeredLate;

	/** Once acquired, what ends the hold on a node after it ended; guarded by this. */
	private IntFunction<CompletableFuture<?>> ended;

	RedlockAcquisition(RedlockCleanups cleanups, RedlockHoldEnds ends, RedlockRestarts restarts, int size, LockKey key,
			String ownerToken, long leaseMillis) {
		this.cleanups = cleanups;
		this.ends = ends;
		this.restarts = restarts;
		this.outstanding = new CompletableFuture<?>[size];
		this.key = key;
		this.ownerToken = ownerToken;
		this.leaseMillis = leaseMillis;
	}

	/**
	 * Decide on the answers so far. A yes of a node that may have restarted within the
	 * restart delay does not count ({@link RedlockRestarts}): it may have forgotten the
	 * key of a holder that still counts on it. Its key is still undone if the attempt
	 * fails, and kept (and released, and renewed) with the others if it succeeds.
	 */
	@Override
	public Attempt decide(Tally<Attempt> tally) {
		long counted = tally.mask(Attempt::acquired) & ~this.restarts.quarantined();
		int yes = Long.bitCount(counted);
		if (yes >= tally.quorum()) {
			Lease acquired = new Lease(this.ownerToken, Lease.NOT_DRAWN, validFrom(tally, counted), this.leaseMillis,
					tally.mask(Attempt::acquired));
			if (!acquired.isExpired(System.nanoTime())) {
				return Attempt.acquired(acquired);
			}
			if (tally.pending() > 0) {
				// A node yet to answer may have been sent to later.
				return null;
			}
			throw tally.unreachable(this.key, "acquire", yes + " nodes said yes, but only after the lease of "
					+ this.leaseMillis + " ms (less the clock drift allowance) had run out");
		}
		return heldOrUndecided(this.key, "acquire", tally, yes);
	}

	/**
	 * Undo what a failed acquisition took: delete the key on every node that said yes or
	 * may have run the {@code SET}, sent again per node until it answers or its key has
	 * expired; a node yet to answer counts as under cleanup (a retry waits for it) until
	 * its answer came and what it took was deleted. A successful one records the nodes
	 * yet to answer, whose yes must not outlive the hold.
	 */
	@Override
	public void settled(Attempt outcome, Tally<Attempt> tally) {
		if (outcome != null && outcome.acquired()) {
			awaitLateAnswers(tally);
			return;
		}
		for (int i = 0; i < tally.size(); i++) {
			Attempt answer = tally.answer(i);
			if ((answer != null && answer.acquired()) || tally.mayHaveRun(i)) {
				this.cleanups.abandon(i, this.key, this.ownerToken, untilNanos());
			}
			else if (answer == null && (!tally.failed(i) || tally.timedOut(i))) {
				outstanding(i);
			}
		}
	}

	@Override
	public void late(Attempt outcome, int node, Attempt answer, Throwable failure) {
		boolean took = (answer != null && answer.acquired()) || (failure != null && RedisCall.mayHaveRun(failure));
		if (outcome != null && outcome.acquired()) {
			IntFunction<CompletableFuture<?>> end = answeredLate(node);
			if (took && end != null) {
				this.ends.endOn(node, this.key, this.ownerToken, this.leaseMillis, end);
			}
			return;
		}
		CompletableFuture<?> outstanding = outstanding(node);
		if (took) {
			this.cleanups.abandon(node, this.key, this.ownerToken, untilNanos())
				.whenComplete((ignored, error) -> outstanding.complete(null));
		}
		else {
			outstanding.complete(null);
		}
	}

	/**
	 * Return when a key a node has taken until now has expired there: a lease from now.
	 */
	private long untilNanos() {
		return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.leaseMillis);
	}

	/**
	 * Record the nodes an acquired call has not heard from (a node that timed out may
	 * still answer), so that {@link #ended} reaches this call while one may still say
	 * yes. A late answer may have come before this runs.
	 */
	private synchronized void awaitLateAnswers(Tally<Attempt> tally) {
		long awaited = 0;
		for (int i = 0; i < tally.size(); i++) {
			if (tally.answer(i) == null && (!tally.failed(i) || tally.timedOut(i))) {
				awaited |= 1L << i;
			}
		}
		this.awaited = awaited & ~this.answeredLate;
		if (this.awaited != 0) {
			this.ends.straggling(RedlockHoldEnds.id(this.key, this.ownerToken), this);
		}
	}

	/**
	 * Record a node's late answer to an acquired call.
	 * @return what ends the hold on the node, if it has ended, else {@code null}
	 */
	private synchronized IntFunction<CompletableFuture<?>> answeredLate(int node) {
		long bit = 1L << node;
		this.answeredLate |= bit;
		if ((this.awaited & bit) != 0) {
			this.awaited &= ~bit;
			if (this.awaited == 0) {
				this.ends.answered(RedlockHoldEnds.id(this.key, this.ownerToken), this);
			}
		}
		return this.ended;
	}

	/**
	 * Record that the hold this call acquired has ended: a node that says yes from now on
	 * gets the end.
	 * @param end what ends the hold on a node
	 */
	synchronized void ended(IntFunction<CompletableFuture<?>> end) {
		this.ended = end;
	}

	/**
	 * Return the future that is done once a node that had not answered at the decision
	 * has answered and been cleaned up, created (and tracked) by whichever of the
	 * decision and the late answer comes first.
	 */
	@SuppressWarnings("unchecked")
	private synchronized CompletableFuture<Object> outstanding(int node) {
		if (this.outstanding[node] == null) {
			CompletableFuture<Object> outstanding = new CompletableFuture<>();
			this.outstanding[node] = outstanding;
			this.cleanups.track(node, this.key, this.ownerToken, outstanding);
		}
		return (CompletableFuture<Object>) this.outstanding[node];
	}

	/**
	 * Return when the hold's lease starts: the lock is held while a majority of nodes
	 * holds the key, and each node's key lives a lease from when it was sent there at the
	 * earliest, so the majority sent to last holds it longest. A first connection to one
	 * node then does not use up the lease of the others.
	 */
	private static long validFrom(Tally<Attempt> tally, long counted) {
		List<Long> sent = new ArrayList<>();
		for (int i = 0; i < tally.size(); i++) {
			Attempt answer = tally.answer(i);
			if ((counted & (1L << i)) != 0) {
				sent.add(answer.lease().sentNanos());
			}
		}
		// Latest first, by the overflow-safe order of System.nanoTime().
		sent.sort((a, b) -> Long.signum(b - a));
		return sent.get(tally.quorum() - 1);
	}

	/**
	 * Decide an acquisition that has not got a majority: held by someone else once a
	 * majority answered and no majority can say yes any more, failed once too many nodes
	 * failed to answer.
	 */
	static Attempt heldOrUndecided(LockKey key, String action, Tally<Attempt> tally, int free) {
		if (free + tally.pending() >= tally.quorum()) {
			return null;
		}
		if (tally.answered() >= tally.quorum()) {
			long ttl = -1;
			for (int i = 0; i < tally.size(); i++) {
				Attempt answer = tally.answer(i);
				if (answer != null && !answer.acquired() && answer != Attempt.LEFT_FREE
						&& answer.holderTtlMillis() >= 0) {
					ttl = (ttl < 0) ? answer.holderTtlMillis() : Math.min(ttl, answer.holderTtlMillis());
				}
			}
			// A release is announced on the nodes where the holder was marked; waiters
			// listen on a majority, which meets any majority of those.
			boolean announces = tally.count((answer) -> answer.holderAnnounces()) >= tally.quorum();
			return Attempt.held(ttl, announces);
		}
		if (tally.failed() > tally.size() - tally.quorum()) {
			throw tally.unreachable(key, action, "only " + tally.answered() + " answered");
		}
		return null;
	}

}
