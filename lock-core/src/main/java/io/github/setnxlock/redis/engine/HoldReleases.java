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
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.engine.EngineStats.HoldObservations;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.engine.Waits.CallerSteps;
import io.github.setnxlock.redis.engine.Waits.Deadlines;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;

/**
 * How holds end: released by their owner, or dropped when their owner died holding them.
 * A release passes the key to a waiter of this JVM where {@link LocalHandoff} allows it,
 * without a round trip. Otherwise it goes to Redis first and frees the key's slot in this
 * JVM afterwards, so a local waiter never finds the key still there; it ends by the
 * holder's deadline and a small margin whatever the command timeout, and the hold ends
 * even when Redis gives no answer (its key then ends with its lease).
 *
 * @author setnx-lock authors
 */
final class HoldReleases {

	/** How long past the holder's deadline a release may still wait for Redis. */
	private static final long RELEASE_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final LockCommands commands;

	private final KeyStates states;

	private final LockEvents events;

	private final LockEvents renewalEvents;

	private final LocalHandoff handoff;

	private final LeaseRenewer renewer;

	HoldReleases(LockCommands commands, KeyStates states, LockEvents events, LockEvents renewalEvents,
			LocalHandoff handoff, LeaseRenewer renewer) {
		this.commands = commands;
		this.renewer = renewer;
		this.states = states;
		this.events = events;
		this.renewalEvents = renewalEvents;
		this.handoff = handoff;
	}

	/**
	 * Give back one entry of a hold: the last one releases the lock in Redis, deleting
	 * the key, or keeping it for {@code keep} when not {@code null}. The releasing thread
	 * runs the steps of {@link #releaseAsync} itself ({@link CallerSteps}), so the hold
	 * ends, and its listeners hear of it, on that thread.
	 * @throws LockLostException if the hold was lost before the release (a failure to
	 * reach Redis then is suppressed in it)
	 * @throws LockAccessException if Redis could not be reached; the hold ends all the
	 * same, and its key with its lease
	 */
	void release(Hold hold, Duration keep) {
		CallerSteps steps = new CallerSteps();
		CompletableFuture<Void> released = release(hold, keep, steps, steps, this.events);
		steps.runUntil(released);
		try {
			released.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * As {@link #release}, without waiting, for a hold held once (asynchronous holds are
	 * not reentrant): listeners hear of it off the caller's thread. Steps that follow
	 * Redis's answer, or a renewal's, run on {@code callbacks}, never on the thread that
	 * served Redis or renews leases.
	 * @return completed when the hold has ended; failed as {@link #release} throws
	 */
	CompletableFuture<Void> releaseAsync(Hold hold, Duration keep, Executor callbacks) {
		return release(hold, keep, callbacks,
				(future, deadlineNanos) -> this.renewer.thread.completeAt(future, null, deadlineNanos),
				this.renewalEvents);
	}

	/**
	 * The steps of a release, each when the one before completes: stop the renewals (once
	 * one that is out has come back), hand the key over locally or send the release, end
	 * the hold when Redis answered or the holder's deadline passed.
	 */
	private CompletableFuture<Void> release(Hold hold, Duration keep, Executor steps, Deadlines deadlines,
			LockEvents events) {
		Ending ending = begin(hold, events);
		if (ending == null) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Void> writes = this.renewer.stop(hold);
		CompletableFuture<Void> stopped = (writes != null) ? writes : CompletableFuture.completedFuture(null);
		// Past the holder's deadline the hold is lost: its release goes out all the same.
		deadlines.completeAt(stopped, ending.until());
		Function<Void, CompletableFuture<Void>> release = (ignored) -> {
			if (handedOver(ending, keep, events)) {
				return CompletableFuture.completedFuture(null);
			}
			long generationBeforeRelease = hold.state.releases.generation();
			// A copy, which the deadline may complete without touching the command's own.
			CompletableFuture<ReleaseResult> answer;
			try {
				answer = send(hold, keep).copy();
			}
			catch (RuntimeException ex) {
				answer = CompletableFuture.failedFuture(ex);
			}
			catch (Error ex) {
				end(ending, generationBeforeRelease, null, null, events);
				throw ex;
			}
			deadlines.completeAt(answer, ending.untilAfterRenewal());
			return answer.handleAsync((result, failure) -> {
				Throwable thrown = Waits.unwrapped(failure);
				if (thrown instanceof Error error) {
					end(ending, generationBeforeRelease, null, null, events);
					throw error;
				}
				RuntimeException cause = (thrown == null || thrown instanceof RuntimeException)
						? (RuntimeException) thrown
						: new LockAccessException(hold.key(), RedisCall.describe(thrown), thrown);
				if (result == null && cause == null) {
					cause = unanswered(hold, new TimeoutException());
				}
				RuntimeException outcome = end(ending, generationBeforeRelease, result, cause, events);
				if (outcome != null) {
					throw outcome;
				}
				return null;
			}, steps);
		};
		// Done at once on the caller's thread; else as a step, not on the thread that
		// applied the renewal.
		return stopped.isDone() ? stopped.thenCompose(release) : stopped.thenComposeAsync(release, steps);
	}

	/**
	 * Count one entry of a hold out; for the last, mark its end.
	 * @return the release to carry out, or {@code null} when the owner still holds it
	 * @throws LockLostException when a reentrant exit finds the hold lost
	 */
	private Ending begin(Hold hold, LockEvents events) {
		boolean lostBefore = hold.isLost(System.nanoTime());
		boolean stillHeld = hold.exit();
		if (lostBefore) {
			Reason reason = hold.renewedUntilLost() ? Reason.RENEWAL_FAILED : Reason.LEASE_ENDED;
			// Told unless the renewer already reported it.
			if (hold.markLost(reason)) {
				events.lost(hold, reason);
			}
			if (stillHeld) {
				throw hold.lostException("before unlock()");
			}
		}
		else if (stillHeld) {
			return null;
		}
		else if (!hold.beginRelease()) {
			// Found lost by the renewer a moment ago, which reported it.
			lostBefore = true;
		}
		return new Ending(hold, lostBefore,
				Math.max(hold.lease().deadlineNanos(), System.nanoTime()) + RELEASE_MARGIN_NANOS);
	}

	/**
	 * Hand the key to a waiter of this JVM where allowed; called once no renewal is out.
	 * @return whether it was handed over, which ends the hold
	 */
	private boolean handedOver(Ending ending, Duration keep, LockEvents events) {
		Hold hold = ending.hold();
		// Not a key a renewal the release waited for found taken: that release goes to
		// Redis, which tells the holder.
		if (ending.lostBefore() || keep != null || hold.foundLostWhileReleasing()
				|| !hold.state.slot.handOff(hold, this.handoff)) {
			return false;
		}
		// Its lease goes on as the next hold's, so nothing is sent to Redis.
		hold.leaveState();
		hold.state.released(hold.owner(), KeyState.NOT_ANNOUNCED);
		this.states.unretain(hold.key.redisKey(), hold.state);
		this.handoff.handedOff(hold);
		HoldObservations.stop(hold, false);
		events.ended(hold, false);
		return true;
	}

	private CompletableFuture<ReleaseResult> send(Hold hold, Duration keep) {
		// Sent even for a lost hold: the scripts only delete what is still ours.
		return (keep != null) ? this.commands.releaseKeeping(hold.key, hold.lease(), keep)
				: this.commands.release(hold.key, hold.lease());
	}

	private static LockAccessException unanswered(Hold hold, Throwable cause) {
		return new LockAccessException(hold.key(), "Redis did not answer the release of lock '" + hold.key()
				+ "' before its lease ended: the lock counts as lost, and its key ends with its lease", cause);
	}

	/**
	 * End the hold once Redis answered, or did not: free the key's slot (the next owner
	 * waits for the release's message, which waiters in other JVMs hear at the same time,
	 * only if there is one), stop the observation, tell the listeners.
	 * @return what the owner is to hear: a failure, a loss, or {@code null}
	 */
	private RuntimeException end(Ending ending, long generationBeforeRelease, ReleaseResult result,
			RuntimeException failure, LockEvents events) {
		Hold hold = ending.hold();
		KeyState state = hold.state;
		// A hold no thread owns left its state when it was found lost.
		boolean leavesState = hold.leaveState();
		if (leavesState) {
			if (result != null) {
				state.slot.run.releasedInRedis(result == ReleaseResult.RELEASED_AND_ANNOUNCED);
			}
			state.released(hold.owner(), (result == ReleaseResult.RELEASED_AND_ANNOUNCED) ? generationBeforeRelease
					: KeyState.NOT_ANNOUNCED);
			this.states.unretain(hold.key.redisKey(), state);
		}
		// Unanswered, the hold counts as released unless its deadline passed.
		boolean lostBefore = ending.lostBefore();
		Reason lostWhileReleasing = hold.foundLostWhileReleasing() ? hold.lostReason() : null;
		boolean lost = lostBefore || lostWhileReleasing != null
				|| ((result != null) ? !result.released() : hold.isLost(System.nanoTime()));
		if (leavesState) {
			HoldObservations.stop(hold, lost);
			events.ended(hold, lost);
		}
		if (lostWhileReleasing != null) {
			// A renewal the release waited for found the key taken: whatever the release
			// found after it (no key, a failure), the hold was lost before unlock().
			events.lost(hold, lostWhileReleasing);
		}
		if (lostWhileReleasing != null || lostBefore) {
			// Known lost before the release, or while it waited: that is the caller's
			// news, whether or not Redis answered the release that tidies up after it.
			LockLostException lostException = hold.lostException("before unlock()");
			if (failure != null) {
				lostException.addSuppressed(failure);
			}
			return lostException;
		}
		if (failure != null) {
			return failure;
		}
		if (result == ReleaseResult.NOT_OURS) {
			events.lost(hold, Reason.RELEASE_FOUND_ANOTHER_OWNER);
			return new LockLostException(hold.key(),
					"Lock '" + hold.key() + "' was lost before unlock(): another client took it over");
		}
		if (result == ReleaseResult.EXPIRED) {
			events.lost(hold, Reason.LEASE_ENDED);
			return new LockLostException(hold.key(), "Lock '" + hold.key() + "' was lost before unlock(): its lease of "
					+ Duration.ofMillis(hold.lease().validityMillis()) + " ended");
		}
		return null;
	}

	/**
	 * A release under way: whether its hold was lost before it began, and how long it may
	 * wait for Redis (the holder's deadline and a small margin).
	 */
	private record Ending(Hold hold, boolean lostBefore, long until) {

		/**
		 * Return how long the release may wait once no renewal is out: a renewal the
		 * release waited for may have moved the holder's deadline on.
		 */
		long untilAfterRenewal() {
			return Math.max(this.until, this.hold.lease().deadlineNanos() + RELEASE_MARGIN_NANOS);
		}

	}

	/**
	 * End the hold of an owner that died without releasing it, or of a lost hold that no
	 * thread owns (an owner that may never release it): its state in this JVM is dropped,
	 * once, and its key ends with its lease. A later release of such a hold still tells
	 * its owner of the loss.
	 */
	void abandoned(Hold hold) {
		if (!hold.leaveState()) {
			return;
		}
		hold.state.released(hold.owner(), KeyState.NOT_ANNOUNCED);
		this.states.unretain(hold.key.redisKey(), hold.state);
		HoldObservations.stop(hold, true);
		this.renewalEvents.ended(hold, true);
	}

}
