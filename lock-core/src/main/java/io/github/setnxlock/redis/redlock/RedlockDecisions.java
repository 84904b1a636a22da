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

import java.util.Optional;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * How {@link RedlockCommands} decides its releases and reads on the nodes' answers.
 *
 * @author setnx-lock authors
 */
final class RedlockDecisions {

	private static final Log logger = LogFactory.getLog(RedlockCommands.class);

	private RedlockDecisions() {
	}

	/**
	 * Decide a release: released as soon as a majority of the nodes released the key or
	 * found none (the others' answers come afterwards); lost only when more of the nodes
	 * the key was known on say it is not the holder's than a majority leaves room for
	 * (nodes it never reached say so too, and prove nothing); otherwise released once
	 * every node answered or timed out, the nodes that did not named at WARN, since their
	 * keys end with the lease. Failed only when no majority answered at all.
	 */
	static ReleaseResult released(LockKey key, Lease lease, Tally<ReleaseResult> tally) {
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
	 * Decide whether any node's answer matches: {@code true} at the first that does,
	 * {@code false} once every node answered and none did, failed when none did but some
	 * could not answer.
	 */
	static <T> Boolean anyNode(LockKey key, Tally<T> tally, Predicate<? super T> matches, String action, String found) {
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

	/**
	 * Decide whose owner token a majority of the nodes holds, for messages.
	 * @param tally the nodes' values so far
	 * @return the token, empty when no token can have a majority, {@code null} while
	 * undecided
	 */
	static Optional<String> ownerOnMajority(Tally<String> tally) {
		for (int i = 0; i < tally.size(); i++) {
			String value = tally.answer(i);
			if (value != null) {
				String owner = WaiterMark.removedFrom(value);
				int count = tally.count((other) -> other != null && WaiterMark.removedFrom(other).equals(owner));
				if (count >= tally.quorum()) {
					return Optional.of(owner);
				}
			}
		}
		return (tally.pending() > 0) ? null : Optional.empty();
	}

	/**
	 * Decide whether the key is held: by one owner on a majority; free once no owner can
	 * reach a majority even with the nodes that failed; failed when those could.
	 */
	static Boolean lockedOnMajority(LockKey key, Tally<String> tally) {
		int most = 0;
		for (int i = 0; i < tally.size(); i++) {
			String value = tally.answer(i);
			if (value != null) {
				String owner = WaiterMark.removedFrom(value);
				most = Math.max(most,
						tally.count((other) -> other != null && WaiterMark.removedFrom(other).equals(owner)));
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
	}

}
