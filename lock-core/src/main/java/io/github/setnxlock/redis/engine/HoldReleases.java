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
import java.util.concurrent.TimeoutException;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.LockLostException;
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

	/** Set once, right after construction: the renewer and this refer to each other. */
	LeaseRenewer renewer;

	HoldReleases(LockCommands commands, KeyStates states, LockEvents events, LockEvents renewalEvents,
			LocalHandoff handoff) {
		this.commands = commands;
		this.states = states;
		this.events = events;
		this.renewalEvents = renewalEvents;
		this.handoff = handoff;
	}

	/**
	 * Give back one entry of a hold: the last one releases the lock in Redis, deleting
	 * the key, or keeping it for a while when asked. Ends by the holder's deadline and a
	 * small margin whatever the command timeout: past it the hold counts as lost.
	 * @param hold the hold
	 * @param keep how long the key stays after the release, or {@code null} to delete it
	 * @throws LockLostException if the hold was lost before the release
	 * @throws LockAccessException if Redis could not be reached; the hold ends all the
	 * same, and its key with its lease
	 */
	void release(Hold hold, Duration keep) {
		boolean lostBefore = hold.isLost(System.nanoTime());
		if (hold.exit()) {
			if (lostBefore) {
				report(hold, hold.renewedUntilLost() ? Reason.RENEWAL_FAILED : Reason.LEASE_ENDED);
				throw hold.lostException("before unlock()");
			}
			return;
		}
		if (lostBefore) {
			report(hold, hold.renewedUntilLost() ? Reason.RENEWAL_FAILED : Reason.LEASE_ENDED);
		}
		else if (!hold.beginRelease()) {
			// Found lost by the renewer a moment ago, which reported it.
			lostBefore = true;
		}
		long until = Math.max(hold.lease().deadlineNanos(), System.nanoTime()) + RELEASE_MARGIN_NANOS;
		this.renewer.stop(hold, until);
		// A renewal that was out at Redis may have moved the deadline on.
		until = Math.max(until, hold.lease().deadlineNanos() + RELEASE_MARGIN_NANOS);
		KeyState state = hold.state;
		// Not a key a renewal the release waited for found taken: that release goes to
		// Redis, which tells the holder.
		if (!lostBefore && keep == null && !hold.foundLostWhileReleasing() && state.slot.handOff(hold, this.handoff)) {
			handedOff(hold);
			return;
		}
		long generationBeforeRelease = state.releases.generation();
		ReleaseResult result = null;
		try {
			// Sent even for a lost hold: the scripts only delete what is still ours.
			CompletableFuture<ReleaseResult> answer = (keep != null)
					? this.commands.releaseKeeping(hold.key, hold.lease(), keep)
					: this.commands.release(hold.key, hold.lease());
			result = Waits.awaitUninterrupted(answer, until);
			state.slot.run.releasedInRedis(result == ReleaseResult.RELEASED_AND_ANNOUNCED);
		}
		catch (TimeoutException ex) {
			throw new LockAccessException(hold.key(), "Redis did not answer the release of lock '" + hold.key()
					+ "' before its lease ended: the lock counts as lost, and its key ends with its lease", ex);
		}
		finally {
			// Redis first: a local waiter must not find our key still there. It waits for
			// the release's message only if there is one, which waiters in other JVMs
			// hear at the same time.
			state.released(hold.owner(),
					(result == ReleaseResult.RELEASED_AND_ANNOUNCED) ? generationBeforeRelease : KeyState.NO_HANDOFF);
			this.states.release(hold.key.redisKey(), state);
			// The hold ends here even when Redis gave no answer: its key then ends with
			// its lease, and the hold counts as released unless its deadline passed.
			boolean lost = lostBefore || ((result != null) ? !result.released() : hold.isLost(System.nanoTime()));
			HoldObservations.stop(hold, lost);
			this.events.ended(hold, lost);
		}
		if (lostBefore) {
			throw hold.lostException("before unlock()");
		}
		if (result == ReleaseResult.NOT_OURS) {
			this.events.lost(hold, Reason.RELEASE_FOUND_ANOTHER_OWNER);
			throw new LockLostException(hold.key(),
					"Lock '" + hold.key() + "' was lost before unlock(): another client took it over or deleted it");
		}
		if (result == ReleaseResult.EXPIRED) {
			this.events.lost(hold, Reason.LEASE_ENDED);
			throw new LockLostException(hold.key(), "Lock '" + hold.key() + "' was lost before unlock(): its lease of "
					+ Duration.ofMillis(hold.lease().validityMillis()) + " ended");
		}
	}

	/**
	 * End a hold whose key went to a waiter of this engine: its lease goes on as the next
	 * hold's, so nothing is sent to Redis.
	 */
	private void handedOff(Hold hold) {
		hold.state.released(hold.owner(), KeyState.NO_HANDOFF);
		this.states.release(hold.key.redisKey(), hold.state);
		this.handoff.handedOff(hold);
		HoldObservations.stop(hold, false);
		this.events.ended(hold, false);
	}

	/**
	 * Tell the listeners of a loss the renewer did not already report.
	 */
	private void report(Hold hold, Reason reason) {
		if (hold.markLost(reason)) {
			this.events.lost(hold, reason);
		}
	}

	/**
	 * End the hold of an owner that died without releasing it: its state in this JVM is
	 * dropped, and its key ends with its lease.
	 */
	void abandoned(Hold hold) {
		hold.state.released(hold.owner(), KeyState.NO_HANDOFF);
		this.states.release(hold.key.redisKey(), hold.state);
		HoldObservations.stop(hold, true);
		this.renewalEvents.ended(hold, true);
	}

}
