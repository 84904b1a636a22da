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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.Reachability;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * The rules of asking Redis until an attempt succeeds or the wait ends, which every
 * acquisition's {@link AsyncAcquisition} follows.
 * <p>
 * Between attempts it waits for the key's release message (see {@link ReleaseMessages}),
 * and no longer than the holder's remaining lease, so a handoff takes one message and one
 * attempt, with no polling. The attempt's answer says whether the holder will announce:
 * under the token protocol an attempt that will wait marks the holder's token, so the
 * holder's release announces itself (a release that finds no mark sends no message);
 * under the timestamp protocol every release by a registry is announced, and the owner
 * key tells a registry's holder from a client of the documented pattern. Behind a holder
 * that will not announce (another library's token, a documented client's timestamp), or
 * while the subscription is not confirmed, it re-checks after a jittered backoff instead,
 * short (1 to 3 ms) under the timestamp protocol, whose documented clients poll, and
 * doubling from 2 ms to 64 ms under the token protocol, so it finds the key free soon
 * after such a holder releases it. An owner that was handed the slot by a local release
 * that was announced first waits a moment for that release's message, which waiters in
 * other JVMs receive at the same time, so the JVM that released does not win every
 * handoff.
 * <p>
 * Each attempt goes through the {@link io.github.setnxlock.redis.gateway.RedisGateway},
 * and the caller waits for its answer only as long as its wait has left, so a wait with a
 * time limit ends on time even when Redis stalls for longer than the client's command
 * timeout, and an interrupt never cuts a command short. An attempt the caller stopped
 * waiting for may still acquire the lock in Redis; it is then released at once, so no key
 * is left behind. A wait that ends without any answer from Redis since it began is a
 * {@link LockAccessException} (Redis did not answer), not {@code false} (somebody holds
 * the lock). Waits without a time limit, and single attempts, are bounded by the client's
 * command timeout instead.
 * <p>
 * Two things Redis showed, or did not, change that. While the registry's first connection
 * is still on its way (nothing answered yet, and no connection refused), or until one of
 * its attempts has been answered while Redis is not known to be unreachable, a wait that
 * ends before the attempt's answer comes waits on for it, bounded; and a wait that ends
 * before its attempt's answer is contention ({@code null}) when Redis answered during the
 * wait, this attempt or any call of the registry, unless it is known to be unreachable
 * since: then it is a {@link LockAccessException} that says why, even after Redis had
 * answered that the lock was held (see {@link AnswerWaits}).
 *
 * @author setnx-lock authors
 */
final class AcquireLoop {

	/**
	 * The longest a new slot owner waits for the release message of the release that
	 * handed it the slot.
	 */
	static final long HANDOFF_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	/**
	 * How long a new slot owner lets a waiter of another registry go first, after a
	 * release that ended a run of local hand-offs because that waiter was known: longer
	 * than that waiter's attempt takes to reach Redis once it has the release message.
	 */
	static final long YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** How often a yielding owner asks whether the waiter elsewhere has taken the key. */
	static final long YIELD_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	final LockCommands commands;

	final ReleaseMessages messages;

	private final AbandonedAcquisitions abandoned;

	/**
	 * How long to wait for an attempt's answer, and what a wait that ends first means.
	 */
	final AnswerWaits answers;

	private final boolean reChecksQuickly;

	/** Whether releases hand over locally, so that runs of hand-offs are tracked. */
	final boolean handsOffLocally;

	/**
	 * Create the loop.
	 * @param commands the protocol
	 * @param messages the release subscription
	 * @param abandoned undoes attempts whose answer never came
	 * @param handsOffLocally whether releases hand over locally (see
	 * {@link LocalHandoff})
	 * @param reachability what the calls have shown of Redis
	 */
	AcquireLoop(LockCommands commands, ReleaseMessages messages, AbandonedAcquisitions abandoned,
			boolean handsOffLocally, Reachability reachability) {
		this.commands = commands;
		this.messages = messages;
		this.abandoned = abandoned;
		this.answers = new AnswerWaits(commands, reachability);
		this.reChecksQuickly = commands.reChecksQuickly();
		this.handsOffLocally = handsOffLocally;
	}

	/**
	 * Return how long to wait for a release message after an attempt that found the key
	 * held: the holder's remaining lease, when it will announce its release, else the
	 * next back-off pause.
	 * @param attempt the attempt's answer
	 * @param backoff the wait's back-off
	 * @return the pause, in nanoseconds
	 */
	long pauseAfter(Attempt attempt, RetryBackoff backoff) {
		// Asked whatever the protocol, since asking subscribes on the first wait:
		// timestamp waiters, who also re-check, are woken by release messages and
		// keyspace notifications too.
		boolean listening = this.messages.isListening();
		if (attempt.holderAnnounces() && attempt.holderTtlMillis() >= 0 && listening) {
			// The release message wakes us; the holder's lease bounds the wait if it dies
			// without one. A holder that will not announce (another client's token, a
			// documented client's timestamp) is re-checked on the back-off instead.
			return TimeUnit.MILLISECONDS.toNanos(attempt.holderTtlMillis() + 1);
		}
		return backoff.nextPauseNanos(attempt.holderTtlMillis());
	}

	/**
	 * Return a new back-off for a wait.
	 * @return the back-off
	 */
	RetryBackoff newBackoff() {
		return new RetryBackoff(
				this.reChecksQuickly ? RetryBackoff.SHORT_MAX_PAUSE_NANOS : RetryBackoff.MAX_PAUSE_NANOS);
	}

	/**
	 * Undo an attempt that failed in a way that may have reached Redis.
	 * @return the exception that tells the caller
	 */
	LockAccessException failedAttempt(LockKey key, String ownerToken, Duration lease, RuntimeException failure) {
		this.abandoned.undo(key, ownerToken, lease);
		return new LockAccessException(key.key(),
				RedisCall.describe(failure) + "; the attempt may still reach Redis, and is undone if it takes the lock",
				failure);
	}

	/**
	 * Return the exception of a wait that ended before the acquisition was decided,
	 * saying what it waited for where the protocol tells (the Redlock nodes).
	 */
	static LockAccessException unanswered(LockKey key, Throwable cause, String waitedFor) {
		return new LockAccessException(key.key(), "Redis did not answer within the wait for lock '" + key.key()
				+ "' (Redis key '" + key.redisKey() + "')" + ((waitedFor != null) ? ": " + waitedFor : ""), cause);
	}

	/**
	 * Once the answer of an attempt the caller stopped waiting for comes: release the
	 * lock if it took it, or undo the attempt if its answer never comes.
	 */
	void undoWhenAnswered(LockKey key, String ownerToken, Duration lease, CompletableFuture<Attempt> future) {
		future.whenComplete((attempt, failure) -> {
			if (failure == null) {
				this.answers.attemptAnswered();
			}
			if ((attempt != null && attempt.acquired()) || (failure != null && RedisCall.mayHaveRun(failure))) {
				this.abandoned.undo(key, ownerToken, lease);
			}
		});
	}

}
