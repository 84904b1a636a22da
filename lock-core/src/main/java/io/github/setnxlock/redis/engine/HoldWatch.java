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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * What the watchdog ({@link LeaseRenewer}) keeps and decides about one hold, apart from
 * the hold itself: what its tick makes of the hold ({@link RenewalSchedule}), what the
 * hold's renewals showed, to explain a loss ({@link LossEvidence}), and what the hold's
 * owner asked to happen on one ({@link LossAction}).
 *
 * @author setnx-lock authors
 */
final class HoldWatch {

	private HoldWatch() {
	}

	/**
	 * What a hold's owner asked to happen when the hold is found lost (the thread-bound
	 * view interrupts its thread), with the renewal thread's watch of the deadline that
	 * finds it. It belongs to the reentrant entry that asked: when that entry ends, or
	 * the hold, it is dropped and its watch cancelled.
	 */
	static final class LossAction {

		/** Set by the first request; cleared when the entry that asked ends. */
		private final AtomicReference<Runnable> action = new AtomicReference<>();

		/** The entry (hold count) that asked, 0 for none: the owner's only. */
		private int entry;

		/** The renewal thread's watch of the deadline, if any. */
		private volatile ScheduledFuture<?> watch;

		/**
		 * Ask for an action, for the given entry of the hold.
		 * @return {@code true} the first time it is asked
		 */
		boolean request(Runnable requested, int holdCount) {
			if (!this.action.compareAndSet(null, requested)) {
				return false;
			}
			this.entry = holdCount;
			return true;
		}

		boolean isRequested() {
			return this.action.get() != null;
		}

		/**
		 * Keep the watch of the deadline, to cancel when the action is no longer wanted.
		 */
		void watching(ScheduledFuture<?> deadlineWatch) {
			this.watch = deadlineWatch;
		}

		void run() {
			Runnable requested = this.action.get();
			if (requested != null) {
				requested.run();
			}
		}

		/** An entry of the hold ends: drop the action if that entry asked for it. */
		void entryEnded(int holdCount) {
			if (holdCount == this.entry) {
				drop();
			}
		}

		/** Drop the action and its watch: the entry that asked has ended, or the hold. */
		void drop() {
			this.action.set(null);
			this.entry = 0;
			ScheduledFuture<?> deadlineWatch = this.watch;
			if (deadlineWatch != null) {
				deadlineWatch.cancel(false);
			}
		}

	}

	/**
	 * What happened to a hold's renewals, kept so that a loss is explained by what
	 * happened rather than by where it was noticed: renewals that could not reach Redis
	 * (failed, or still unanswered at the deadline) are one thing, a lease too short for
	 * Redis's round trip (renewals answered, but after the deadline) another. Written by
	 * the renewal thread, read by the holder.
	 */
	static final class LossEvidence {

		/**
		 * Why the last renewal failed, or {@code null} when it was answered: the evidence
		 * that tells "Redis could not be reached" from "the lease is too short".
		 */
		private volatile Throwable renewalFailure;

		/** Set when renewals stopped at the hold limit: the lease then just ends. */
		private volatile boolean renewalsCapped;

		/** When the renewal out at Redis was sent, as {@link System#nanoTime()}; or 0. */
		private volatile long renewalSentNanos;

		/** The round trip in ms of a renewal answered past the deadline; -1 for none. */
		private volatile long lateRoundTripMillis = -1;

		/** Set when the fencing token's draw, not a renewal, found the key taken. */
		private volatile boolean drawRejected;

		void drawRejected() {
			this.drawRejected = true;
		}

		void capRenewals() {
			this.renewalsCapped = true;
		}

		boolean renewalsCapped() {
			return this.renewalsCapped;
		}

		void renewalSent(long sentNanos) {
			this.renewalSentNanos = sentNanos;
		}

		void renewalAnswered() {
			this.renewalSentNanos = 0;
		}

		void renewalFailed(Throwable failure) {
			this.renewalFailure = failure;
		}

		void answeredLate(long sentNanos) {
			this.lateRoundTripMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNanos);
			this.renewalFailure = null;
		}

		/**
		 * Return the exception that tells the owner the hold was lost, and why: from the
		 * loss's reason, and for a renewed hold whose deadline passed, from what its
		 * renewals did (failed, still out at Redis, or answered after the deadline).
		 */
		LockLostException explain(String key, LockLostEvent.Reason reason, boolean renewed, Lease lease, String when) {
			Duration validity = Duration.ofMillis(lease.validityMillis());
			Throwable failure = this.renewalFailure;
			String how;
			if (reason == LockLostEvent.Reason.FORCE_RELEASED) {
				how = "an operator released it by force";
			}
			else if (reason == LockLostEvent.Reason.RENEWAL_REJECTED) {
				how = (this.drawRejected ? "the draw of its fencing token" : "a renewal")
						+ " found it taken over or deleted";
			}
			else if (!renewed || this.renewalsCapped) {
				how = "its lease of " + validity + " ended";
			}
			else if (failure != null) {
				how = "renewals could not reach Redis before its lease of " + validity + " ended ("
						+ RedisCall.describe(failure) + ")";
			}
			else if (this.renewalSentNanos != 0) {
				how = "renewals could not reach Redis before its lease of " + validity + " ended (a renewal sent "
						+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.renewalSentNanos)
						+ " ms ago is still unanswered)";
			}
			else {
				long late = this.lateRoundTripMillis;
				how = "its lease of " + validity + " is too short for renewals to keep it"
						+ ((late >= 0) ? ": Redis answered a renewal after " + late + " ms, past the holder's deadline"
								: ": it ran out before a renewal was answered")
						+ "; choose a lease well above Redis's round trip";
			}
			LockLostException lost = new LockLostException(key, "Lock '" + key + "' was lost " + when + ": " + how);
			if (failure != null) {
				lost.initCause(failure);
			}
			return lost;
		}

	}

	/**
	 * What the watchdog's tick makes of one hold at a given time, apart from doing it
	 * (see {@link LeaseRenewer}): a lease is due once a third of it has passed since it
	 * was last sent, and leases a sixth used or more go along with a due one, so that the
	 * holds of a registry share their round trips.
	 *
	 * @param dueNanos how old a lease may get before it is renewed
	 * @param periodNanos the tick, half of {@code dueNanos}: leases at least this old go
	 * along
	 * @param maxHold how long renewals go on, or {@code null} for as long as the hold
	 */
	record RenewalSchedule(long dueNanos, long periodNanos, Duration maxHold) {

		static RenewalSchedule of(Duration lease, Duration maxHold) {
			long due = Math.max(2, lease.toNanos() / 3);
			return new RenewalSchedule(due, due / 2, maxHold);
		}

		Look look(Hold hold, long nowNanos) {
			if (hold.isReleasing()) {
				return Look.FORGET;
			}
			if (!hold.ownerAlive()) {
				return Look.ABANDONED;
			}
			if (hold.hasEnded() || !hold.renewedUntilLost()) {
				// Lost already, or a lease nobody renews: only watched for an owner that
				// dies without unlocking.
				return Look.WATCH_OWNER;
			}
			if (hold.isLost(nowNanos)) {
				return Look.LOST;
			}
			if (this.maxHold != null && nowNanos - hold.acquiredNanos >= this.maxHold.toNanos()) {
				return Look.CAP;
			}
			long age = nowNanos - hold.lease().sentNanos();
			return (age >= this.dueNanos) ? Look.DUE : (age >= this.periodNanos) ? Look.ALONG : Look.FRESH;
		}

		/** What a tick does with a hold. */
		enum Look {

			/** Its owner is releasing it, and cleans up after it: stop watching. */
			FORGET,

			/** Its owner thread died without releasing it: drop it, warn. */
			ABANDONED,

			/** Nothing to renew; watched only for an owner that dies. */
			WATCH_OWNER,

			/** Past its deadline without a renewal that came back: lost. */
			LOST,

			/** Past the hold limit: no more renewals, it ends with its lease. */
			CAP,

			/** A third of the lease or more used: a batch goes out for it. */
			DUE,

			/** A sixth or more used: renewed along with a due one, if there is one. */
			ALONG,

			/** Renewed recently: nothing to do. */
			FRESH

		}

	}

}
