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
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * What happened to a hold's renewals, kept so that a loss is explained by what happened
 * rather than by where it was noticed: renewals that could not reach Redis (failed, or
 * still unanswered at the deadline) are one thing, a lease too short for Redis's round
 * trip (renewals answered, but after the deadline) another. Written by the renewal
 * thread, read by the holder.
 *
 * @author setnx-lock authors
 */
final class LossEvidence {

	/**
	 * Why the last renewal failed, or {@code null} when it was answered: the evidence
	 * that tells "Redis could not be reached" from "the lease is too short".
	 */
	private volatile Throwable renewalFailure;

	/** Set when renewals stopped at the hold limit: the lease then just ends. */
	private volatile boolean renewalsCapped;

	/** When the renewal out at Redis was sent ({@link System#nanoTime()}); 0 for none. */
	private volatile long renewalSentNanos;

	/** The round trip of a renewal answered after the deadline, in ms; -1 for none. */
	private volatile long lateRoundTripMillis = -1;

	/**
	 * Set when the draw of the fencing token, rather than a renewal, found the key taken.
	 */
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
	 * loss's reason, and for a renewed hold whose deadline passed, from what its renewals
	 * did (failed, still out at Redis, or answered after the deadline).
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
