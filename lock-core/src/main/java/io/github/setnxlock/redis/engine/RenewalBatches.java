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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;

/**
 * The {@link LeaseRenewer}'s round trips: one batch of renewals out at Redis at a time,
 * and what its answers do to the holds. Answers are applied on the renewal thread.
 *
 * @author setnx-lock authors
 */
final class RenewalBatches {

	private static final Log logger = LogFactory.getLog(RenewalBatches.class);

	private final LockCommands commands;

	private final Duration lease;

	private final LockEvents events;

	private final LeaseRenewer renewer;

	/** The batch out at Redis, if any. Written by the renewal thread only. */
	private volatile Batch inFlight;

	private final ReentrantLock batchLock = new ReentrantLock();

	private final AtomicLong batches = new AtomicLong();

	/** Whether the last renewals failed; read and written by the renewal thread only. */
	private boolean failing;

	private final AtomicLong renewals = new AtomicLong();

	RenewalBatches(LockCommands commands, Duration lease, LockEvents events, LeaseRenewer renewer) {
		this.commands = commands;
		this.lease = lease;
		this.events = events;
		this.renewer = renewer;
	}

	boolean isIdle() {
		return this.inFlight == null;
	}

	/**
	 * Return the renewal of the hold that is out at Redis, if there is one: completed
	 * once its answer has been applied.
	 * @param hold the hold
	 * @return the renewal, or {@code null}
	 */
	CompletableFuture<Void> renewalOf(Hold hold) {
		Batch batch;
		this.batchLock.lock();
		try {
			batch = this.inFlight;
		}
		finally {
			this.batchLock.unlock();
		}
		return (batch != null && batch.holds().contains(hold)) ? batch.applied() : null;
	}

	long batches() {
		return this.batches.get();
	}

	long renewals() {
		return this.renewals.get();
	}

	void send(List<Hold> candidates) {
		List<Hold> batch;
		CompletableFuture<List<RenewalResult>> answer = new CompletableFuture<>();
		// Completed once the answer is applied to the holds, which a release waits for:
		// it must send the lease the renewal produced, not the one before.
		CompletableFuture<Void> applied = new CompletableFuture<>();
		// A holder that starts releasing either is left out here, or finds this batch in
		// flight and waits for it (see stop), so a renewal never lands after a release.
		this.batchLock.lock();
		try {
			batch = candidates.stream().filter((hold) -> !hold.hasEnded()).toList();
			if (batch.isEmpty()) {
				return;
			}
			this.inFlight = new Batch(Set.copyOf(batch), applied);
		}
		finally {
			this.batchLock.unlock();
		}
		long sentNanos = System.nanoTime();
		batch.forEach((hold) -> hold.evidence.renewalSent(sentNanos));
		List<LockKey> keys = batch.stream().map((hold) -> hold.key).toList();
		List<Lease> leases = batch.stream().map(Hold::lease).toList();
		this.batches.incrementAndGet();
		try {
			this.commands.renew(keys, leases, this.lease).whenComplete((results, failure) -> {
				if (failure != null) {
					answer.completeExceptionally(failure);
				}
				else {
					answer.complete(results);
				}
			});
		}
		catch (RuntimeException ex) {
			answer.completeExceptionally(ex);
		}
		answer.whenComplete((results, failure) -> {
			try {
				this.renewer.thread.scheduler.execute(() -> {
					try {
						applyAnswer(batch, sentNanos, results, failure);
					}
					finally {
						// Cleared only now: a release that came meanwhile waits for the
						// answer applied, not just received.
						this.inFlight = null;
						applied.complete(null);
					}
				});
			}
			catch (RejectedExecutionException ex) {
				// The registry is closed: nobody renews any more, and a release must not
				// wait for this batch.
				this.inFlight = null;
				applied.complete(null);
			}
		});
	}

	private void applyAnswer(List<Hold> batch, long sentNanos, List<RenewalResult> results, Throwable failure) {
		batch.forEach((hold) -> hold.evidence.renewalAnswered());
		if (failure != null) {
			batch.forEach((hold) -> hold.evidence.renewalFailed(failure));
			failed(batch, failure);
			batch.forEach((hold) -> this.events.renewalEnded(new LockListener.Renewal(hold.key(), hold.name, false)));
			this.renewer.retrySoon();
		}
		else {
			apply(batch, sentNanos, results);
		}
	}

	private void apply(List<Hold> batch, long sentNanos, List<RenewalResult> results) {
		boolean failed = false;
		for (int i = 0; i < batch.size(); i++) {
			Hold hold = batch.get(i);
			RenewalResult result = results.get(i);
			if (result.failure() == null) {
				this.events.renewalEnded(new LockListener.Renewal(hold.key(), hold.name, result.renewed() != null));
			}
			if (result.renewed() != null) {
				this.failing = false;
				if (hold.takeRenewal(result.renewed())) {
					this.renewals.incrementAndGet();
				}
				else if (!hold.hasEnded()) {
					// Answered after the holder's own deadline: the hold is lost already,
					// for a lease too short for the round trip, not for Redis.
					hold.evidence.answeredLate(sentNanos);
					this.renewer.lost(hold, Reason.RENEWAL_FAILED);
				}
			}
			else if (result.rejected() == ReleaseResult.EXPIRED) {
				// Our timestamp had passed by Redis's clock when the renewal ran: the
				// lease was too short for the round trip, nobody took the key.
				hold.evidence.answeredLate(sentNanos);
				this.renewer.lost(hold, Reason.RENEWAL_FAILED);
			}
			else if (result.rejected() != null) {
				this.renewer.lost(hold, Reason.RENEWAL_REJECTED);
			}
			else {
				hold.evidence.renewalFailed(result.failure());
				failed(List.of(hold), result.failure());
				this.events.renewalEnded(new LockListener.Renewal(hold.key(), hold.name, false));
				failed = true;
			}
		}
		if (failed) {
			this.renewer.retrySoon();
		}
	}

	/**
	 * Log a failed renewal: at WARN, naming the locks, the first time after a success, at
	 * DEBUG while the failures go on. It is tried again until the holders' deadlines; a
	 * hold lost for it is logged once more (see {@link LockEvents}).
	 */
	private void failed(List<Hold> holds, Throwable failure) {
		String locks = holds.stream().map((hold) -> LockEvents.quoted(hold.key(), hold.name)).toList().toString();
		if (!this.failing) {
			this.failing = true;
			logger.warn("Could not renew the lease of lock(s) " + locks + "; trying again until their deadlines",
					failure);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Could not renew the lease of lock(s) " + locks + " again", failure);
		}
	}

	/**
	 * A batch of renewals out at Redis.
	 *
	 * @param holds the holds it renews
	 * @param applied completed once its answer has been applied to the holds
	 */
	private record Batch(Set<Hold> holds, CompletableFuture<Void> applied) {

	}

}
