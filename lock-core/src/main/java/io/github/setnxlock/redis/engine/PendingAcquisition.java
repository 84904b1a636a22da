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
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.redis.engine.EngineStats.HoldObservations;
import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.engine.Waits.UnreachableRedis;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * One acquisition under way, the same steps whoever waits for it: claim the key's slot
 * ({@link Slot#claimAsync}: wait in line behind the owners of this JVM, holding no
 * thread), then take the key the previous owner handed over, or ask Redis
 * ({@link AsyncAcquisition}: attempts, release messages and back-off, as
 * {@link AcquireLoop} rules). Their {@link #outcome} is the acquired attempt, or
 * {@code null} when the wait ended first.
 * <p>
 * Cancelling the outcome gives the acquisition up: the claim leaves the line, or the
 * attempt under way stops (an answer still coming is undone when it comes). Whoever takes
 * the outcome ({@link #take}) makes the hold and tells the listeners, once; an outcome
 * nobody took (cancelled, or failed when the registry closed) is given back: the key
 * released in Redis if it was taken after all, and the slot freed. An attempt whose
 * answer never came is undone the same way, later ({@link AbandonedAcquisitions}).
 *
 * @author setnx-lock authors
 */
final class PendingAcquisition {

	private static final Log logger = LogFactory.getLog(PendingAcquisition.class);

	private final Acquisitions acquisitions;

	final LockKey key;

	final String name;

	final Object owner;

	final KeyState state;

	private final boolean renewed;

	private final long startNanos;

	private final Observation wait;

	final CompletableFuture<Attempt> outcome = new CompletableFuture<>();

	/** The steps in Redis, once the slot is granted. */
	private final AtomicReference<AsyncAcquisition> inRedis = new AtomicReference<>();

	/** When the key became the owner's: the attempt's sending, or the hand-off. */
	private volatile long acquiredNanos;

	PendingAcquisition(Acquisitions acquisitions, LockKey key, String name, Object owner, KeyState state,
			boolean renewed, long startNanos) {
		this.acquisitions = acquisitions;
		this.key = key;
		this.name = name;
		this.owner = owner;
		this.state = state;
		this.renewed = renewed;
		this.startNanos = startNanos;
		this.wait = acquisitions.observations.startWait(key, name);
	}

	void start(Duration lease, long waitNanos) {
		long deadline = (waitNanos == LeaseLimits.NO_LIMIT_NANOS) ? Waits.NO_DEADLINE : this.startNanos + waitNanos;
		CompletableFuture<SlotTurn> claim = this.state.slot.claimAsync(this.owner, deadline, this.renewed,
				this::schedule);
		this.outcome.whenComplete((attempt, failure) -> {
			if (this.outcome.isCancelled() && !this.state.slot.withdraw(this.owner)) {
				AsyncAcquisition asking = this.inRedis.get();
				if (asking != null) {
					asking.outcome.cancel(false);
				}
			}
		});
		Thread asker = Thread.currentThread();
		claim.thenCompose((turn) -> {
			if (turn == null) {
				return CompletableFuture.<Attempt>completedFuture(null);
			}
			Lease handed = turn.handedLease();
			long now = System.nanoTime();
			if (handed != null && !handed.isExpired(now)) {
				this.acquiredNanos = now;
				return CompletableFuture.completedFuture(Attempt.acquired(handed));
			}
			// Woken too late to use a handed lease (its renewal stopped with the released
			// hold): the key ends with that lease, and Redis decides.
			AsyncAcquisition asking = new AsyncAcquisition(this.acquisitions.acquireLoop,
					this.acquisitions.renewer.thread.scheduler, this.key, this.state,
					this.acquisitions.ownerTokens.next(asker), lease, this.startNanos, waitNanos, turn);
			this.inRedis.set(asking);
			if (this.outcome.isDone()) {
				asking.outcome.cancel(false);
			}
			return asking.start().thenApply((attempt) -> {
				if (attempt != null) {
					this.acquiredNanos = attempt.lease().sentNanos();
				}
				return attempt;
			});
		}).whenComplete((attempt, failure) -> {
			Throwable cause = Waits.unwrapped(failure);
			boolean taken = (cause != null) ? this.outcome.completeExceptionally(cause)
					: this.outcome.complete(attempt);
			if (!taken) {
				giveBack(attempt);
			}
		});
	}

	/**
	 * Take the outcome: make the hold, or free the slot, and tell the listeners; throw
	 * what the acquisition failed with, if it did.
	 */
	Hold take(Attempt attempt, Throwable failure, LockEvents events) {
		Hold hold = null;
		Result result = Result.ERROR;
		try {
			if (attempt != null) {
				hold = new Hold(this.owner, this.key, this.name, this.state, attempt.lease(), this.renewed,
						this.acquiredNanos);
				hold.observation = this.acquisitions.observations.startHold(this.key, this.name);
			}
			this.state.acquired(this.owner, hold);
			if (hold != null) {
				this.acquisitions.renewer.renew(hold);
			}
			else {
				this.acquisitions.states.unretain(this.key.redisKey(), this.state);
			}
			result = (hold != null) ? Result.ACQUIRED : (failure == null) ? Result.TIMEOUT
					: (failure instanceof CancellationException) ? Result.INTERRUPTED : Result.ERROR;
		}
		finally {
			ended(result, attempt != null && attempt.tookOver(), events);
		}
		if (failure instanceof UnreachableRedis unreachable) {
			throw unreachable.forKey(this.key);
		}
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		if (failure != null) {
			throw new IllegalStateException(failure);
		}
		return hold;
	}

	void ended(Result result, boolean tookOver, LockEvents events) {
		HoldObservations.stop(this.wait, result.name().toLowerCase(Locale.ROOT));
		events.acquisitionEnded(new LockListener.Acquisition(this.key.key(), this.name, result,
				Duration.ofNanos(System.nanoTime() - this.startNanos), tookOver));
	}

	private void giveBack(Attempt attempt) {
		try {
			if (attempt != null) {
				this.acquisitions.acquireLoop.commands.release(this.key, attempt.lease())
					.whenComplete((released, failure) -> {
						if (failure != null && logger.isDebugEnabled()) {
							logger.debug("Could not give back lock " + LockEvents.quoted(this.key.key(), this.name)
									+ ", taken after its caller gave up; it ends with its lease", failure);
						}
					});
			}
		}
		finally {
			this.state.acquired(this.owner, null);
			this.acquisitions.states.unretain(this.key.redisKey(), this.state);
		}
	}

	/**
	 * Schedule a look at the slot's line; none once the engine is closed, whose close
	 * fails the acquisition.
	 */
	private Future<?> schedule(Runnable look, long atNanos) {
		try {
			return this.acquisitions.renewer.thread.scheduler.schedule(look, Math.max(0, atNanos - System.nanoTime()),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
	}

	/**
	 * Undoes acquisitions whose answer never came: a command timeout, a reset connection,
	 * or a caller that stopped waiting and whose attempt then failed. Such an attempt may
	 * still run in Redis, later, and would leave the key locked for its whole lease with
	 * an owner token nobody remembers; so a compare-and-delete with that token follows it
	 * ({@link LockCommands#abandon}).
	 * <p>
	 * On Lettuce's shared connection (Spring Boot's default) the compare-and-delete goes
	 * out on the connection the attempt went out on, so Redis runs it after the attempt,
	 * if the attempt runs at all: one answer settles it. Clients that spread commands
	 * over pooled connections (Jedis) cannot promise that order, so the
	 * compare-and-delete is repeated while it finds nothing to delete, backing off from
	 * {@value #FIRST_PAUSE_MILLIS} ms to {@value #MAX_PAUSE_MILLIS} ms, for up to
	 * {@value #REPEAT_FOR_MILLIS} ms; one that fails is tried again on the same back-off
	 * until the attempt's lease would have ended. An attempt that reaches Redis later
	 * than that is left to its lease.
	 */
	static final class AbandonedAcquisitions {

		private static final Log logger = LogFactory.getLog(AbandonedAcquisitions.class);

		static final long FIRST_PAUSE_MILLIS = 50;

		static final long MAX_PAUSE_MILLIS = 2000;

		static final long REPEAT_FOR_MILLIS = 5000;

		private final LockCommands commands;

		private final ScheduledExecutorService timer;

		AbandonedAcquisitions(LockCommands commands, ScheduledExecutorService timer) {
			this.commands = commands;
			this.timer = timer;
		}

		/**
		 * Undo an acquisition attempt that may have run, or may still run, in Redis: its
		 * owner token is used by no other attempt.
		 */
		void undo(LockKey key, String ownerToken, Duration lease) {
			long now = System.nanoTime();
			send(key, ownerToken, now + TimeUnit.MILLISECONDS.toNanos(REPEAT_FOR_MILLIS), now + lease.toNanos(),
					FIRST_PAUSE_MILLIS);
		}

		private void send(LockKey key, String ownerToken, long repeatUntil, long leaseEnd, long pauseMillis) {
			this.commands.abandon(key, ownerToken).whenComplete((deleted, failure) -> {
				if (Boolean.TRUE.equals(deleted)) {
					logger.info("An acquisition of lock '" + key.key() + "' whose answer never came had taken the lock"
							+ " in Redis; it was released");
					return;
				}
				long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis);
				if (next - ((failure != null) ? leaseEnd : repeatUntil) > 0) {
					if (failure != null) {
						logger.warn("Could not undo an acquisition of lock '" + key.key() + "' whose answer never came;"
								+ " if it took the lock, the lock ends with its lease", failure);
					}
					return;
				}
				try {
					long nextPause = Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS);
					this.timer.schedule(() -> send(key, ownerToken, repeatUntil, leaseEnd, nextPause), pauseMillis,
							TimeUnit.MILLISECONDS);
				}
				catch (RejectedExecutionException ex) {
					// The registry is closed: the lock, if taken, ends with its lease.
				}
			});
		}

	}

}
