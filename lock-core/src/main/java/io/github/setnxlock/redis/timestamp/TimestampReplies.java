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
package io.github.setnxlock.redis.timestamp;

import java.util.List;
import java.util.function.Supplier;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.Replies;

/**
 * The answers of the timestamp protocol's scripts, which {@link TimestampLockCommands}
 * sends, read straight into the engine's values: what each status code of each script
 * means.
 *
 * @author setnx-lock authors
 */
final class TimestampReplies {

	private TimestampReplies() {
	}

	/**
	 * Read {@code timestamp-acquire.lua}'s answer: {@code {1, token, value, validity}}
	 * acquired, {@code {2, ..., previous value}} taken over, {@code {0, holder's ttl,
	 * announces}} held; below zero, what the keys hold that no lock does.
	 */
	static Attempt attempt(LockKey key, Object answer, long sentNanos) {
		List<?> reply = Replies.list(key, answer);
		long status = Replies.longAt(key, reply, 0);
		if (status == 1 || status == 2) {
			Lease lease = new Lease(Replies.stringAt(key, reply, 2), Replies.longAt(key, reply, 1), sentNanos,
					Replies.longAt(key, reply, 3));
			return (status == 1) ? Attempt.acquired(lease) : Attempt.tookOver(lease, Replies.stringAt(key, reply, 4));
		}
		return switch ((int) status) {
			// A registry's holder announces its release; a client of the documented
			// pattern never does.
			case 0 -> Attempt.held(Replies.longAt(key, reply, 1), Replies.longAt(key, reply, 2) == 1);
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			case -2 -> throw Replies.notTimestamp(key, Replies.stringAt(key, reply, 1));
			case -3 -> throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

	/**
	 * Read {@code timestamp-release.lua}'s answer: {@code 1} deleted, {@code 2} deleted
	 * after a rewrite by a client of the documented pattern, {@code 3} gone, {@code 0}
	 * not ours, {@code -1} expired. Every timestamp release that deletes is announced:
	 * waiters do not mark a timestamp, which other clients must be able to read.
	 */
	static ReleaseResult released(LockKey key, Object answer, Supplier<ReleaseResult> notOurs) {
		return switch ((int) Replies.code(key, answer, 1, 2, 3, 0, -1)) {
			case 1, 2 -> ReleaseResult.RELEASED_AND_ANNOUNCED;
			case 3 -> ReleaseResult.GONE;
			case 0 -> notOurs.get();
			default -> ReleaseResult.EXPIRED;
		};
	}

	/**
	 * Read the answer of {@code timestamp-keep.lua} that ends a hold and keeps the key.
	 */
	static ReleaseResult releasedKeeping(LockKey key, Object answer, Supplier<ReleaseResult> notOurs) {
		return switch ((int) keepStatus(key, answer)) {
			case 1 -> ReleaseResult.RELEASED;
			case 2 -> ReleaseResult.RELEASED_AND_ANNOUNCED;
			case 0 -> notOurs.get();
			case 3 -> ReleaseResult.GONE;
			default -> ReleaseResult.EXPIRED;
		};
	}

	/** Read the answer of {@code timestamp-keep.lua} that renews or shortens a lease. */
	static RenewalResult renewal(LockKey key, Lease lease, Object answer, long sentNanos) {
		long status = keepStatus(key, answer);
		List<?> reply = (List<?>) answer;
		// A renewal that finds no key cannot go on holding it.
		return (status == 1 || status == 2)
				? RenewalResult.renewed(new Lease(Replies.stringAt(key, reply, 1), lease.fencingToken(), sentNanos,
						Replies.longAt(key, reply, 2)))
				: RenewalResult.rejected((status == -1) ? ReleaseResult.EXPIRED : ReleaseResult.NOT_OURS);
	}

	/**
	 * Read the status of {@code timestamp-keep.lua}'s answer: {@code {1, value,
	 * validity}} extended, {@code {2, ...}} extended and announced, {@code {0}} not ours,
	 * {@code {-1}} expired, {@code {3}} gone.
	 */
	private static long keepStatus(LockKey key, Object answer) {
		long status = Replies.longAt(key, Replies.list(key, answer), 0);
		if (status < -1 || status > 3) {
			throw Replies.unexpected(key, answer);
		}
		return status;
	}

	/**
	 * Read {@code timestamp-held.lua}'s answer: {@code {1}} held, {@code {0}} free; below
	 * zero, what the key holds that no lock does.
	 */
	static boolean held(LockKey key, Object answer) {
		List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> true;
			case 0 -> false;
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			case -2 -> throw Replies.notTimestamp(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
