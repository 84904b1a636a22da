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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.engine.PendingAcquisition.AbandonedAcquisitions;
import io.github.setnxlock.redis.engine.Waits.UnreachableRedis;
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
 * is left behind. What a wait that ends first means is {@link AnswerWaits}'s. Waits
 * without a time limit, and single attempts, are bounded by the client's command timeout
 * instead. The pauses between attempts are a {@link RetryBackoff}'s.
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

	final AnswerWaits answers;

	private final boolean reChecksQuickly;

	/** Whether releases hand over locally, so that runs of hand-offs are tracked. */
	final boolean handsOffLocally;

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
	 * next back-off pause, in nanoseconds.
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

	RetryBackoff newBackoff() {
		return new RetryBackoff(
				this.reChecksQuickly ? RetryBackoff.SHORT_MAX_PAUSE_NANOS : RetryBackoff.MAX_PAUSE_NANOS);
	}

	/** Undo an attempt whose failure may have reached Redis; return the caller's news. */
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

	/**
	 * How long an acquisition waits for its attempt's answer once its own wait has ended,
	 * and what the end of such a wait means, from what the registry's calls have shown of
	 * Redis ({@link Reachability}).
	 * <p>
	 * While the first connection is still on its way (nothing answered, nothing refused)
	 * the wait goes on as {@link Reachability#openingDeadline} allows: a client that has
	 * just started takes longer than a short wait to connect, which is no evidence that
	 * Redis is down, and a stalled Redis still ends such a call about a second after it
	 * accepted the connection. Until an attempt of the registry has been answered, an
	 * attempt's answer is also waited for until {@link Reachability#FIRST_ANSWER_WAIT}
	 * after the call began, unless Redis is known to be unreachable: the first commands
	 * of a client that has just started (classes to load, code not yet compiled) take
	 * longer than a short wait on a busy machine, even after the warm-up's answer, which
	 * is no evidence of contention nor of Redis down. A wait that ends first is
	 * contention when Redis answered during it (this call's attempt found the lock held,
	 * or any call of the registry was answered: the wait went by in line behind this
	 * application's other calls, or on a slow Redis) and Redis is not known to be
	 * unreachable since; otherwise Redis did not answer, which is an error that says why
	 * where it is known.
	 */
	static final class AnswerWaits {

		private final LockCommands commands;

		private final Reachability reachability;

		private volatile boolean attemptAnswered;

		AnswerWaits(LockCommands commands, Reachability reachability) {
			this.commands = commands;
			this.reachability = reachability;
		}

		void attemptAnswered() {
			// Read first: written once, not by every answer.
			if (!this.attemptAnswered) {
				this.attemptAnswered = true;
			}
		}

		/**
		 * Return until when to wait for an attempt's answer once the wait for it, until
		 * {@code deadline}, has ended: later while the first connection is still on its
		 * way (ask again then), or while no attempt of the registry has been answered and
		 * this call's has not ({@code answered}).
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
		 * Return what a wait that ended before its attempt's answer came means:
		 * {@code null} for contention, else the exception that says Redis did not answer.
		 */
		LockAccessException ended(LockKey key, String ownerToken, long startNanos, boolean answered,
				Throwable timeout) {
			Throwable unreachable = this.reachability.unreachable();
			if (unreachable == null && (answered || this.reachability.answeredSince(startNanos))) {
				return null;
			}
			return unanswered(key, (unreachable != null) ? unreachable : timeout, waitedFor(key, ownerToken));
		}

		/** Say what a wait that ended unanswered waited for, where something is known. */
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

	/**
	 * How long a contender sleeps between attempts while someone else holds the lock: a
	 * short pause that doubles up to a cap, with jitter so that contenders in different
	 * processes do not retry in step, and never longer than the holder's claim has left
	 * (a holder that dies is replaced as soon as its lease ends). One instance per wait;
	 * not thread-safe.
	 */
	static final class RetryBackoff {

		static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

		/**
		 * The cap while waiting for holders that announce their release: the re-check
		 * only covers a subscription that is not confirmed yet.
		 */
		static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(64);

		/**
		 * The cap while holders may release without a word (clients of the documented
		 * pattern, which delete the key and retry every few milliseconds themselves):
		 * short enough that such clients do not win every handoff.
		 */
		static final long SHORT_MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

		private final long maxPauseNanos;

		private long pauseNanos = FIRST_PAUSE_NANOS;

		RetryBackoff(long maxPauseNanos) {
			this.maxPauseNanos = maxPauseNanos;
		}

		/** Return the next pause, at least a millisecond; a negative TTL is unknown. */
		long nextPauseNanos(long holderTtlMillis) {
			long base = this.pauseNanos;
			this.pauseNanos = Math.min(this.pauseNanos * 2, this.maxPauseNanos);
			long jittered = base / 2 + ThreadLocalRandom.current().nextLong(base);
			if (holderTtlMillis >= 0) {
				// Wake just after the claim ends rather than up to a whole pause later.
				jittered = Math.min(jittered, TimeUnit.MILLISECONDS.toNanos(holderTtlMillis + 1));
			}
			return Math.max(jittered, TimeUnit.MILLISECONDS.toNanos(1));
		}

	}

}
