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
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;

/**
 * The renewals of {@link RedlockCommands}: one batch per node, all sent at once, and a
 * decision per lock: renewed once a majority extended it, lost once too many nodes no
 * longer hold it, failed otherwise. The batch is decided when every lock is, and never
 * later than the node timeout, so a frozen node does not hold renewals up.
 *
 * @author setnx-lock authors
 */
final class RedlockRenewals {

	private final RedlockCommands redlock;

	RedlockRenewals(RedlockCommands redlock) {
		this.redlock = redlock;
	}

	CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		long sentNanos = System.nanoTime();
		long leaseMillis = lease.toMillis();
		// A node where an earlier attempt's cleanup of the same key and token is under
		// way
		// may delete the key it extends: it does not count (see RedlockCleanups).
		boolean[][] cleaning = new boolean[this.redlock.nodes.size()][];
		return this.redlock.<List<RenewalResult>, List<RenewalResult>>onEveryNode((i) -> {
			boolean[] onNode = new boolean[keys.size()];
			for (int lock = 0; lock < keys.size(); lock++) {
				onNode[lock] = this.redlock.cleanups.underWay(i, keys.get(lock), leases.get(lock).value());
			}
			synchronized (cleaning) {
				cleaning[i] = onNode;
			}
			return this.redlock.nodes.get(i).renew(keys, leases, lease);
		}, (tally) -> {
			List<RenewalResult> results = new ArrayList<>(keys.size());
			for (int lock = 0; lock < keys.size(); lock++) {
				long excluded = 0;
				synchronized (cleaning) {
					for (int i = 0; i < cleaning.length; i++) {
						excluded |= (cleaning[i] != null && cleaning[i][lock]) ? 1L << i : 0;
					}
				}
				RenewalResult result = decide(keys.get(lock), leases.get(lock), lock, tally, sentNanos, leaseMillis,
						excluded);
				if (result == null) {
					return null;
				}
				results.add(result);
			}
			return results;
		});
	}

	private static RenewalResult decide(LockKey key, Lease current, int lock, Tally<List<RenewalResult>> tally,
			long sentNanos, long leaseMillis, long excluded) {
		long renewed = 0;
		int notOurs = 0;
		int failed = 0;
		RuntimeException firstFailure = null;
		StringBuilder failures = new StringBuilder();
		for (int i = 0; i < tally.size(); i++) {
			List<RenewalResult> answer = tally.answer(i);
			if (answer == null) {
				failed += tally.failed(i) ? 1 : 0;
				continue;
			}
			RenewalResult result = answer.get(lock);
			if (result.renewed() != null && (excluded & (1L << i)) != 0) {
				failed++;
				failures.append("; ").append(tally.nodeName(i)).append(" still undoing an earlier attempt");
			}
			else if (result.renewed() != null) {
				renewed |= 1L << i;
			}
			else if (result.rejected() != null) {
				notOurs++;
			}
			else {
				failed++;
				firstFailure = (firstFailure != null) ? firstFailure : result.failure();
				failures.append("; ")
					.append(tally.nodeName(i))
					.append(" failed: ")
					.append(result.failure().getMessage());
			}
		}
		int quorum = tally.quorum();
		if (Long.bitCount(renewed) >= quorum) {
			return RenewalResult
				.renewed(new Lease(current.value(), current.fencingToken(), sentNanos, leaseMillis, renewed));
		}
		if (Long.bitCount(renewed) + failed + tally.pending() < quorum) {
			return RenewalResult.rejected(ReleaseResult.NOT_OURS);
		}
		if (tally.pending() > 0) {
			return null;
		}
		LockAccessException unreachable = tally.unreachable(key, "renew",
				"renewed on " + Long.bitCount(renewed) + ", not held on " + notOurs + failures);
		return RenewalResult.failed(unreachable);
	}

}
