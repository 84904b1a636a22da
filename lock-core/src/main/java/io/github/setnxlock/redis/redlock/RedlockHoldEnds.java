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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.token.TokenLockCommands;

/**
 * How a hold of {@link RedlockCommands} ends on every node, not only on the majority its
 * release is decided on. Two things would otherwise leave its key on a minority for up to
 * a lease, where it refuses that node's part of every later acquisition:
 * <ul>
 * <li>a node that failed the release (refused while its client was reconnecting, or timed
 * out) still holds the key: the release is sent there again, on a doubling pause, until
 * the node answers or the key has expired;</li>
 * <li>an acquisition decided on a majority may still take the key on a node that had not
 * answered: a node's second step (the script after a refused {@code SET}) is sent only
 * once its {@code SET} answered, and finds the key free once the release has run there; a
 * client sends a {@code SET} again after a reconnection. Such a late yes, once the hold
 * has ended, is ended on that node as the release would have: whichever of the late
 * answer and the end comes first, the other sees it (the end is recorded before the
 * release is sent, so a late answer that does not see it ran before the release).</li>
 * </ul>
 *
 * @author setnx-lock authors
 */
final class RedlockHoldEnds {

	private final RedlockCommands redlock;

	/**
	 * Acquisitions decided acquired that some node has not answered yet, by key and
	 * token.
	 */
	private final ConcurrentHashMap<String, RedlockAcquisition> straggling = new ConcurrentHashMap<>();

	RedlockHoldEnds(RedlockCommands redlock) {
		this.redlock = redlock;
	}

	static String id(LockKey key, String token) {
		return key.redisKey() + ' ' + token;
	}

	/** Record an acquisition decided acquired whose nodes are not all answered. */
	void straggling(String id, RedlockAcquisition acquisition) {
		this.straggling.put(id, acquisition);
	}

	/** Forget an acquisition once its last node answered. */
	void answered(String id, RedlockAcquisition acquisition) {
		this.straggling.remove(id, acquisition);
	}

	/**
	 * Record that a hold has ended (released, or its acquisition undone): a late yes of
	 * its acquisition from now on is ended on its node.
	 * @param end what ends the hold on a node, sent again until answered
	 */
	void ended(LockKey key, String token, IntFunction<CompletableFuture<?>> end) {
		RedlockAcquisition acquisition = this.straggling.get(id(key, token));
		if (acquisition != null) {
			acquisition.ended(end);
		}
	}

	/**
	 * End a hold on a node that took its key after it ended, or failed its release.
	 * @param leaseMillis how long the key may live there from now
	 */
	void endOn(int node, LockKey key, String token, long leaseMillis, IntFunction<CompletableFuture<?>> end) {
		long untilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
		this.redlock.cleanups.sendUntil(node, key, token, untilNanos, true, () -> end.apply(node));
	}

	/**
	 * Release a hold on every node; a node that fails its part is sent the end again.
	 */
	CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		List<TokenLockCommands> nodes = this.redlock.nodes;
		return release(key, lease, (i) -> nodes.get(i).release(key, lease),
				(i) -> nodes.get(i).abandon(key, lease.value()));
	}

	/**
	 * Release keeping the key on every node; a node that fails it, or takes the key
	 * afterwards ({@link RedlockHoldEnds}), is sent what is left of the time to keep.
	 */
	CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		List<TokenLockCommands> nodes = this.redlock.nodes;
		long keepUntilNanos = System.nanoTime() + keep.toNanos();
		return release(key, lease, (i) -> nodes.get(i).releaseKeeping(key, lease, keep), (i) -> {
			long left = TimeUnit.NANOSECONDS.toMillis(keepUntilNanos - System.nanoTime());
			return (left > 0) ? nodes.get(i).releaseKeeping(key, lease, Duration.ofMillis(left))
					: nodes.get(i).abandon(key, lease.value());
		});
	}

	/**
	 * Undo an acquisition on every node. {@code true} or {@code false} (whether any node
	 * deleted the key) only once every node answered; failed while any did not, so that
	 * the caller sends it again until the lease ends. Each node's answer also ends the
	 * hold-back of a later attempt's {@code SET} there ({@link RedlockCleanups}). A late
	 * yes of the acquisition after this is deleted where it lands
	 * ({@link RedlockHoldEnds}).
	 */
	CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		List<TokenLockCommands> nodes = this.redlock.nodes;
		ended(key, ownerToken, (i) -> nodes.get(i).abandon(key, ownerToken));
		return this.redlock.onEveryNode((i) -> {
			CompletableFuture<Boolean> abandoned = nodes.get(i).abandon(key, ownerToken);
			this.redlock.cleanups.track(i, key, ownerToken, abandoned);
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
	 * Release a hold on every node: decided as {@link RedlockDecisions#released}; a node
	 * that fails its part, at the decision or later, is sent the end again.
	 * @param release the release, to node {@code i}
	 * @param end what ends the hold on node {@code i} when sent again
	 * @return the decision, to come
	 */
	CompletableFuture<ReleaseResult> release(LockKey key, Lease lease,
			IntFunction<CompletableFuture<ReleaseResult>> release, IntFunction<CompletableFuture<?>> end) {
		ended(key, lease.value(), end);
		return this.redlock.onEveryNode(release, new Release(key, lease, end));
	}

	/** The decision of a release, which sends it again to the nodes that failed it. */
	private final class Release implements Quorum.Decision<ReleaseResult, ReleaseResult> {

		private final LockKey key;

		private final Lease lease;

		private final IntFunction<CompletableFuture<?>> end;

		Release(LockKey key, Lease lease, IntFunction<CompletableFuture<?>> end) {
			this.key = key;
			this.lease = lease;
			this.end = end;
		}

		@Override
		public ReleaseResult decide(Tally<ReleaseResult> tally) {
			return RedlockDecisions.released(this.key, this.lease, tally);
		}

		@Override
		public void settled(ReleaseResult outcome, Tally<ReleaseResult> tally) {
			for (int i = 0; i < tally.size(); i++) {
				// A node that timed out may still answer: its late answer tells.
				if (tally.failed(i) && !tally.timedOut(i)) {
					again(i);
				}
			}
		}

		@Override
		public void late(ReleaseResult outcome, int node, ReleaseResult answer, Throwable failure) {
			if (failure != null) {
				again(node);
			}
		}

		private void again(int node) {
			endOn(node, this.key, this.lease.value(), this.lease.validityMillis(), this.end);
		}

	}

}
