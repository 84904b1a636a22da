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
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.engine.AcquireLoop.AnswerWaits;
import io.github.setnxlock.redis.engine.AcquireLoop.RetryBackoff;
import io.github.setnxlock.redis.engine.LocalHandoff.ReleaseSignal;
import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Attempt;

/**
 * The steps of an acquisition in Redis, for every acquisition (see
 * {@link PendingAcquisition}), done with callbacks, so that nothing waits on a thread.
 * Each step sends its command and returns; Redis's answer, a release message
 * ({@link ReleaseSignal}) or a timer on the registry's scheduler runs the next. The
 * decisions follow {@link AcquireLoop}'s rules (how long to pause after an attempt, what
 * a failure means, undoing an attempt whose answer came too late): the wait for the
 * message of an announced release that handed over the slot, the turn for a waiter
 * elsewhere, the wait time kept even when Redis stalls.
 * <p>
 * The outcome completes with the acquired attempt, {@code null} when the wait ended, or
 * the failure; on the thread of whatever ran the last step, so it must be passed on, not
 * handed to user code. Completing it from outside (the caller gave up) stops the steps;
 * an attempt that acquires after that is undone.
 *
 * @author setnx-lock authors
 */
final class AsyncAcquisition {

	private final AcquireLoop loop;

	private final ScheduledExecutorService timer;

	private final LockKey key;

	private final KeyState state;

	private final String ownerToken;

	private final Duration lease;

	private final long startNanos;

	private final long waitNanos;

	private final long deadline;

	/** How the slot came to this owner. */
	private final SlotTurn turn;

	final CompletableFuture<Attempt> outcome = new CompletableFuture<>();

	/** Whether Redis answered an attempt; written by one step at a time. */
	private volatile boolean answered;

	private RetryBackoff backoff;

	/** The end of a turn given to a waiter elsewhere. */
	private long yieldEnd;

	/** The pause in progress, dropped when the outcome completes early. */
	private volatile Pause pause;

	AsyncAcquisition(AcquireLoop loop, ScheduledExecutorService timer, LockKey key, KeyState state, String ownerToken,
			Duration lease, long startNanos, long waitNanos, SlotTurn turn) {
		this.loop = loop;
		this.timer = timer;
		this.key = key;
		this.state = state;
		this.ownerToken = ownerToken;
		this.lease = lease;
		this.startNanos = startNanos;
		this.waitNanos = waitNanos;
		this.deadline = Waits.deadline(startNanos, waitNanos);
		this.turn = turn;
		this.outcome.whenComplete((attempt, failure) -> {
			Pause current = this.pause;
			if (current != null) {
				current.drop();
			}
		});
	}

	/**
	 * Start: after a release that was announced, wait for its message first (and let a
	 * waiter elsewhere go first when asked), as the loop does.
	 */
	CompletableFuture<Attempt> start() {
		if (this.turn.announced() && this.loop.messages.isListening()) {
			pause(this.turn.generation(), AcquireLoop.HANDOFF_WAIT_NANOS,
					this.turn.yieldTurn() ? this::yieldTurn : this::attempt);
		}
		else {
			attempt();
		}
		return this.outcome;
	}

	private void attempt() {
		if (this.outcome.isDone()) {
			return;
		}
		// A cold registry's first attempt goes out even when the wait is over before it
		// could (classes to load, the random source to seed): its answer is waited for
		// as AnswerWaits says.
		if (this.deadline != Waits.NO_DEADLINE
				&& this.loop.answers.deadline(this.startNanos, this.deadline, this.answered) - System.nanoTime() <= 0) {
			this.outcome.complete(null);
			return;
		}
		long generation = this.state.releases.generation();
		CompletableFuture<Attempt> answer;
		try {
			answer = this.loop.commands.acquire(this.key, this.ownerToken, this.lease, this.waitNanos != 0);
		}
		catch (RuntimeException ex) {
			this.outcome.completeExceptionally(ex);
			return;
		}
		awaitAnswer(generation, answer, this.deadline);
	}

	/**
	 * Take the attempt's answer if it comes by a deadline; else wait on while the first
	 * connection is on its way (see {@link AnswerWaits#deadline}), or end the wait as the
	 * loop does.
	 */
	private void awaitAnswer(long generation, CompletableFuture<Attempt> answer, long answerDeadline) {
		Waits.whenAnswered(answer, answerDeadline, this::scheduleAt,
				(attempt, failure) -> answered(generation, answer, attempt, failure), () -> {
					long later = this.loop.answers.deadline(this.startNanos, answerDeadline, this.answered);
					if (later != answerDeadline && !this.outcome.isDone()) {
						awaitAnswer(generation, answer, later);
						return;
					}
					this.loop.undoWhenAnswered(this.key, this.ownerToken, this.lease, answer);
					LockAccessException failure = this.loop.answers.ended(this.key, this.ownerToken, this.startNanos,
							this.answered, new TimeoutException());
					if (failure != null) {
						this.outcome.completeExceptionally(failure);
					}
					else {
						this.outcome.complete(null);
					}
				});
	}

	private void answered(long generation, CompletableFuture<Attempt> answer, Attempt attempt, Throwable failure) {
		if (failure == null) {
			this.loop.answers.attemptAnswered();
		}
		if (this.outcome.isDone()) {
			// Given up meanwhile: undo what the attempt may have taken.
			this.loop.undoWhenAnswered(this.key, this.ownerToken, this.lease, answer);
			return;
		}
		if (failure != null) {
			Throwable cause = Waits.unwrapped(failure);
			this.outcome
				.completeExceptionally((cause instanceof RuntimeException runtime && RedisCall.mayHaveRun(cause))
						? this.loop.failedAttempt(this.key, this.ownerToken, this.lease, runtime) : cause);
			return;
		}
		if (attempt.acquired()) {
			if (this.loop.handsOffLocally) {
				this.state.slot.run.takenInRedis(System.nanoTime(), this.answered);
			}
			if (!this.outcome.complete(attempt)) {
				this.loop.undoWhenAnswered(this.key, this.ownerToken, this.lease, answer);
			}
			return;
		}
		if (this.waitNanos == 0) {
			this.outcome.complete(null);
			return;
		}
		this.answered = true;
		if (this.backoff == null) {
			this.backoff = this.loop.newBackoff();
		}
		pause(generation, this.loop.pauseAfter(attempt, this.backoff), this::attempt);
	}

	/** Let a waiter elsewhere take the key first: see {@link AcquireLoop#YIELD_NANOS}. */
	private void yieldTurn() {
		long end = System.nanoTime() + AcquireLoop.YIELD_NANOS;
		this.yieldEnd = (this.deadline != Waits.NO_DEADLINE && this.deadline - end < 0) ? this.deadline : end;
		askForMark();
	}

	private void askForMark() {
		if (this.outcome.isDone()) {
			return;
		}
		if (this.yieldEnd - System.nanoTime() <= 0) {
			attempt();
			return;
		}
		long generation = this.state.releases.generation();
		CompletableFuture<Attempt> marked;
		try {
			marked = this.loop.commands.markHolder(this.key);
		}
		catch (RuntimeException ex) {
			attempt();
			return;
		}
		Waits.whenAnswered(marked, this.yieldEnd, this::scheduleAt, (answer, failure) -> {
			if (failure == null && answer.holderAnnounces() && answer.holderTtlMillis() >= 0) {
				pause(generation, TimeUnit.MILLISECONDS.toNanos(answer.holderTtlMillis() + 1), this::attempt);
			}
			else if (failure == null && answer == Attempt.LEFT_FREE) {
				pause(generation, Math.min(AcquireLoop.YIELD_RETRY_NANOS, this.yieldEnd - System.nanoTime()),
						this::askForMark);
			}
			else {
				// A failure, or a holder that will not announce: the loop's to handle.
				attempt();
			}
		}, this::attempt);
	}

	/**
	 * Run the next step at the key's next release message, or after a pause, whichever
	 * comes first; never past the deadline.
	 */
	private void pause(long generation, long nanos, Runnable next) {
		if (this.deadline != Waits.NO_DEADLINE) {
			nanos = Math.min(nanos, this.deadline - System.nanoTime());
		}
		if (nanos <= 0) {
			next.run();
			return;
		}
		Pause current = new Pause(next);
		this.pause = current;
		// The callback first, so that a timer that fires at once finds it to forget.
		this.state.releases.whenAnnounced(generation, current);
		if (!current.hasFired()) {
			Future<?> timer = scheduleAt(current::elapsed, System.nanoTime() + nanos);
			current.timeout = timer;
			if (timer == null) {
				current.drop();
			}
			else if (current.hasFired()) {
				timer.cancel(false);
			}
		}
	}

	private Future<?> scheduleAt(Runnable task, long atNanos) {
		try {
			return this.timer.schedule(task, Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			this.outcome.completeExceptionally(LockEngine.closedFor(this.key.key(), ex));
			return null;
		}
	}

	/**
	 * A pause between steps: the release message and the timer race, the first runs the
	 * next step.
	 */
	private final class Pause implements Runnable {

		private final AtomicBoolean fired = new AtomicBoolean();

		private final Runnable next;

		volatile Future<?> timeout;

		Pause(Runnable next) {
			this.next = next;
		}

		/** The release message came first. */
		@Override
		public void run() {
			if (this.fired.compareAndSet(false, true)) {
				cancelTimer();
				this.next.run();
			}
		}

		boolean hasFired() {
			return this.fired.get();
		}

		void elapsed() {
			if (this.fired.compareAndSet(false, true)) {
				AsyncAcquisition.this.state.releases.forget(this);
				this.next.run();
			}
		}

		void drop() {
			if (this.fired.compareAndSet(false, true)) {
				AsyncAcquisition.this.state.releases.forget(this);
				cancelTimer();
			}
		}

		private void cancelTimer() {
			Future<?> timer = this.timeout;
			if (timer != null) {
				timer.cancel(false);
			}
		}

	}

}
