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

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ScriptProtocol;

/**
 * The two-phase fencing draw of {@link RedlockCommands}.
 * <p>
 * No single counter exists, so a token is drawn in two phases: read on every node, while
 * the key is the holder's there, the larger of the node's counter and its clock in
 * microseconds; take one more than the largest of {@code Q} answers; write it on every
 * node, while the key is the holder's and only where it raises the counter; return it
 * once {@code Q} nodes stored it. No later holder's token undercuts an earlier one: an
 * earlier draw's write set and a later draw's read set are majorities, so they share a
 * node; on that node the two holders' keys lived at different times (one value per key,
 * and a key never re-appears on a node after it was removed, since nothing writes it
 * again), and each draw reads and writes inside its own key's life there, so the later
 * draw reads at least the earlier token and returns more. Two draws cannot interleave the
 * other way round on two nodes, since each reads before it writes, so draws are totally
 * ordered. A paused or stale holder cannot draw: it needs its key on a majority, which
 * every later holder's majority intersects.
 * <p>
 * A node restarted without its data has forgotten the counters of earlier draws. It
 * counts for no draw until it has been up for the restart delay, by when every lease it
 * may have held has ended, and answers its clock instead, so tokens stay increasing as
 * long as the Redis servers' clocks disagree by less than that delay (seconds, where
 * synchronised clocks disagree by milliseconds); so does a node whose counter outlived
 * its retention. Without the delay a node restarted faster than the clocks disagree could
 * lower a token.
 *
 * @author setnx-lock authors
 */
final class RedlockFencing {

	/** The read phase of a fencing draw on one node, while the key is the holder's. */
	static final LockScript FENCE_READ = LockScript.of(RedlockFencing.class, "draw the fencing token of", true,
			ScriptProtocol.READ, "redlock-counter.lua", "redlock-fence-read.lua");

	/**
	 * The write phase of a fencing draw on one node, while the key is the holder's and
	 * only if it raises the counter.
	 */
	static final LockScript FENCE_WRITE = LockScript.of(RedlockFencing.class, "draw the fencing token of", true,
			ScriptProtocol.READ, "redlock-counter.lua", "redlock-fence-write.lua");

	/** How often a draw reads again after finding a higher counter on a node. */
	private static final int RETRIES = 2;

	private final RedlockCommands redlock;

	private final long retentionMillis;

	RedlockFencing(RedlockCommands redlock, long retentionMillis) {
		this.redlock = redlock;
		this.retentionMillis = retentionMillis;
	}

	CompletableFuture<OptionalLong> draw(LockKey key, Lease lease) {
		return draw(key, lease, 0, RETRIES);
	}

	private CompletableFuture<OptionalLong> draw(LockKey key, Lease lease, long floor, int retries) {
		List<String> keys = List.of(key.redisKey(), key.fenceKey());
		return this.redlock.<RedlockFenceReply, OptionalLong>onEveryNode((i) -> this.redlock.gateways.get(i)
			.run(FENCE_READ, key, keys, List.of(lease.value()))
			.thenApply((answer) -> RedlockFenceReply.decode(key, answer)), (tally) -> {
				// A node that may have restarted lately may have forgotten the counter:
				// it
				// counts for neither phase (RedlockRestarts), though its answer may raise
				// the token.
				int ours = Long.bitCount(tally.mask((reply) -> reply instanceof RedlockFenceReply.Read)
						& ~this.redlock.restarts.quarantined());
				if (ours >= tally.quorum()) {
					long largest = floor;
					for (int i = 0; i < tally.size(); i++) {
						if (tally.answer(i) instanceof RedlockFenceReply.Read read) {
							largest = Math.max(largest, read.value());
						}
					}
					return OptionalLong.of(largest + 1);
				}
				return notOursOrUndecided(key, tally, ours);
			})
			.thenCompose((drawn) -> drawn.isPresent() ? write(key, lease, drawn.getAsLong(), retries)
					: CompletableFuture.completedFuture(drawn));
	}

	private CompletableFuture<OptionalLong> write(LockKey key, Lease lease, long token, int retries) {
		List<String> keys = List.of(key.redisKey(), key.fenceKey());
		List<String> args = List.of(lease.value(), Long.toString(token),
				Long.toString(lease.validityMillis() + this.retentionMillis));
		// Empty when not ours; the token when written; a negative floor to read again
		// from.
		return this.redlock.<RedlockFenceReply, Long>onEveryNode((i) -> this.redlock.gateways.get(i)
			.run(FENCE_WRITE, key, keys, args)
			.thenApply((answer) -> RedlockFenceReply.decode(key, answer)), (tally) -> {
				// A counter found at least as large already keeps any later draw that
				// reads this node above the token, which is all a write is for.
				int written = Long.bitCount(tally
					.mask((reply) -> reply == RedlockFenceReply.WRITTEN
							|| (reply instanceof RedlockFenceReply.Higher found && found.counter() >= token))
						& ~this.redlock.restarts.quarantined());
				if (written >= tally.quorum()) {
					return token;
				}
				long higher = 0;
				for (int i = 0; i < tally.size(); i++) {
					if (tally.answer(i) instanceof RedlockFenceReply.Higher found) {
						higher = Math.max(higher, found.counter());
					}
				}
				if (higher > 0 && written + tally.pending() < tally.quorum() && retries > 0) {
					return -higher;
				}
				OptionalLong notOurs = notOursOrUndecided(key, tally, written);
				return (notOurs == null) ? null : Long.valueOf(0);
			}).thenCompose((outcome) -> {
				if (outcome > 0) {
					return CompletableFuture.completedFuture(OptionalLong.of(outcome));
				}
				if (outcome < 0) {
					return draw(key, lease, -outcome, retries - 1);
				}
				return CompletableFuture.completedFuture(OptionalLong.empty());
			});
	}

	/**
	 * Decide a phase that has not got a majority: lost once too many nodes say the key is
	 * not the holder's, failed once no majority can answer.
	 */
	private static <T> OptionalLong notOursOrUndecided(LockKey key, Tally<T> tally, int ours) {
		if (ours + tally.pending() >= tally.quorum()) {
			return null;
		}
		int notOurs = tally.count((reply) -> reply == RedlockFenceReply.NOT_OURS);
		if (notOurs > tally.size() - tally.quorum()) {
			return OptionalLong.empty();
		}
		if (tally.pending() > 0) {
			return null;
		}
		throw tally.unreachable(key, "draw the fencing token of", "it was the holder's on " + ours);
	}

}
