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

package io.github.setnxlock.redis.engine;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.Reachability;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * How long an acquisition waits for its attempt's answer once its own wait has ended, and
 * what the end of such a wait means, from what the registry's calls have shown of Redis
 * ({@link Reachability}); the rules of {@link AcquireLoop} and its asynchronous twin.
 * <p>
 * While the first connection is still on its way (nothing answered, nothing refused) the
 * wait goes on as {@link Reachability#openingDeadline} allows: a client that has just
 * started takes longer than a short wait to connect, which is no evidence that Redis is
 * down, and a stalled Redis still ends such a call about a second after it accepted the
 * connection. Until an attempt of the registry has been answered, an attempt's answer is
 * also waited for until {@link Reachability#FIRST_ANSWER_WAIT} after the call began,
 * unless Redis is known to be unreachable: the first commands of a client that has just
 * started (classes to load, code not yet compiled) take longer than a short wait on a
 * busy machine, even after the warm-up's answer, which is no evidence of contention nor
 * of Redis down. A wait that ends first is contention when Redis answered during it (this
 * call's attempt found the lock held, or any call of the registry was answered: the wait
 * went by in line behind this application's other calls, or on a slow Redis) and Redis is
 * not known to be unreachable since; otherwise Redis did not answer, which is an error
 * that says why where it is known.
 *
 * @author setnx-lock authors
 */
final class AnswerWaits {

	private final LockCommands commands;

	private final Reachability reachability;

	/** Whether an attempt of the registry has been answered. */
	private volatile boolean attemptAnswered;

	AnswerWaits(LockCommands commands, Reachability reachability) {
		this.commands = commands;
		this.reachability = reachability;
	}

	/**
	 * Note that Redis answered an attempt of the registry.
	 */
	void attemptAnswered() {
		if (!this.attemptAnswered) {
			this.attemptAnswered = true;
		}
	}

	/**
	 * Return until when to wait for an attempt's answer once the wait for it has ended:
	 * later while the first connection is still on its way (ask again then), or while no
	 * attempt of the registry has been answered.
	 * @param startNanos when the call began
	 * @param deadline the end of the wait for the answer so far
	 * @param answered whether Redis answered an attempt of this call
	 * @return the new end, or {@code deadline}
	 */
	long deadline(long startNanos, long deadline, boolean answered) {
		if (answered || deadline == Waits.NO_DEADLINE || !this.reachability.isTracked()) {
			return deadline;
		}
		long later = deadline;
		if (this.reachability.isOpening()) {
			later = latest(later, this.reachability.openingDeadline(startNanos));
		}
		if (!this.attemptAnswered && this.reachability.unreachable() == null) {
			later = latest(later, startNanos + Reachability.FIRST_ANSWER_WAIT.toNanos());
		}
		return later;
	}

	private static long latest(long one, long other) {
		return (other - one > 0) ? other : one;
	}

	/**
	 * Return what a wait that ended before its attempt's answer came means.
	 * @param key the lock
	 * @param ownerToken the attempt's owner token
	 * @param startNanos when the call began
	 * @param answered whether Redis answered an attempt of this call
	 * @param timeout what ended the wait
	 * @return {@code null} for contention, else the exception that says Redis did not
	 * answer
	 */
	LockAccessException ended(LockKey key, String ownerToken, long startNanos, boolean answered, Throwable timeout) {
		Throwable unreachable = this.reachability.unreachable();
		if (unreachable == null && (answered || this.reachability.answeredSince(startNanos))) {
			return null;
		}
		return AcquireLoop.unanswered(key, (unreachable != null) ? unreachable : timeout, waitedFor(key, ownerToken));
	}

	/**
	 * Say what a wait that ended without an answer waited for, where something is known:
	 * the silent Redlock nodes, why Redis counts as unreachable, the first connection.
	 */
	private String waitedFor(LockKey key, String ownerToken) {
		String nodes = this.commands.unanswered(key, ownerToken);
		if (nodes != null) {
			return nodes;
		}
		Throwable unreachable = this.reachability.unreachable();
		if (unreachable != null) {
			return UnreachableRedis.because(unreachable);
		}
		return this.reachability.isOpening() ? "the first connection to Redis was still being opened" : null;
	}

}
