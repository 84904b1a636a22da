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

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;

import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.engine.FencingDraws.HoldExtensions;
import io.github.setnxlock.redis.engine.HoldWatch.LossAction;
import io.github.setnxlock.redis.engine.HoldWatch.LossEvidence;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * One holder's hold of a key. Internal API.
 * <p>
 * A hold is not bound to a thread: its owner is whatever acquired it (a thread for the
 * {@link java.util.concurrent.locks.Lock} view), and whoever has the hold may release it
 * through the {@link LockEngine}. Its lease is replaced by each renewal; the holder, the
 * renewal thread and waiters of this JVM read it.
 * <p>
 * A hold ends once, one way or the other: its owner starts releasing it, or it is found
 * lost. The two race (a renewal answer against a release), so the end is one
 * compare-and-set: whoever wins decides whether a loss is reported and the loss action
 * run, and the other side stands back.
 *
 * @author setnx-lock authors
 */
public final class Hold {

	private static final int HELD = 0;

	private static final int RELEASING = 1;

	private static final LockLostEvent.Reason[] REASONS = LockLostEvent.Reason.values();

	private final Object owner;

	final LockKey key;

	final String name;

	final KeyState state;

	final long acquiredNanos;

	final boolean renewedByWatchdog;

	private volatile Lease lease;

	/** {@link #HELD}, {@link #RELEASING}, or 2 + the ordinal of the loss reason. */
	private final AtomicInteger end = new AtomicInteger(HELD);

	final LossAction lossAction = new LossAction();

	/** How many times its owner took it: read and written by the owner only. */
	private int count = 1;

	/** Written by the renewal thread only. */
	private volatile int renewals;

	final LossEvidence evidence = new LossEvidence();

	/** The draw of the fencing token, once asked for (see {@link FencingDraws}). */
	final AtomicReference<CompletableFuture<OptionalLong>> fenceDraw = new AtomicReference<>();

	/**
	 * An extension of the lease that is out (see {@link HoldExtensions}), completed once
	 * applied; a release waits for it.
	 */
	final AtomicReference<CompletableFuture<Void>> extension = new AtomicReference<>();

	/** How the hold was found lost after its release began, if it was. */
	private volatile LockLostEvent.Reason lossWhileReleasing;

	/**
	 * Set once the hold's state in this JVM is given up: by its release, or, for a hold
	 * no thread owns, when it is found lost (nobody may ever release it).
	 */
	private final AtomicBoolean stateLeft = new AtomicBoolean();

	/** Reports, at its end, a lease nobody renews as lost; cancelled on release. */
	volatile Future<?> leaseEndWatch;

	volatile Observation observation = Observation.NOOP;

	Hold(Object owner, LockKey key, String name, KeyState state, Lease lease, boolean renewed, long acquiredNanos) {
		this.owner = owner;
		this.key = key;
		this.name = name;
		this.state = state;
		this.lease = lease;
		this.renewedByWatchdog = renewed;
		this.acquiredNanos = acquiredNanos;
	}

	/**
	 * Return the lock's key, without the prefix.
	 * @return the key
	 */
	public String key() {
		return this.key.key();
	}

	/**
	 * Return the lock's logical name.
	 * @return the name, empty when it has none
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the owner's name: a thread's name, for a hold of the thread-bound view.
	 * @return the owner's name
	 */
	public String ownerName() {
		return (this.owner instanceof Thread thread) ? thread.getName() : String.valueOf(this.owner);
	}

	/** Whether the owner can still release the hold: a thread that died cannot. */
	boolean ownerAlive() {
		return !(this.owner instanceof Thread thread) || thread.isAlive();
	}

	Object owner() {
		return this.owner;
	}

	/**
	 * Return when the hold was acquired: its acquisition's sending, or a local hand-off.
	 * @return a {@link System#nanoTime()}
	 */
	public long acquiredNanos() {
		return this.acquiredNanos;
	}

	/**
	 * Return whether the engine renews the lease.
	 * @return {@code true} for a hold taken without a lease of its own
	 */
	public boolean isRenewed() {
		return this.renewedByWatchdog;
	}

	/**
	 * Return the current lease.
	 * @return the lease
	 */
	public Lease lease() {
		return this.lease;
	}

	/**
	 * Return the fencing token: drawn on request, or the acquisition's (timestamp).
	 * @return the token, or {@link Lease#NOT_DRAWN}
	 */
	public long fencingToken() {
		CompletableFuture<OptionalLong> draw = this.fenceDraw.get();
		OptionalLong drawn = (draw != null && draw.isDone() && !draw.isCompletedExceptionally()) ? draw.join()
				: OptionalLong.empty();
		return drawn.orElse(this.lease.fencingToken());
	}

	/**
	 * Take a renewed lease, unless the hold was lost meanwhile or its deadline passed
	 * before the answer came: once lost, a hold stays lost.
	 */
	boolean takeRenewal(Lease renewal) {
		return takeRenewal(renewal, System.nanoTime());
	}

	/**
	 * As {@link #takeRenewal(Lease)}, for an answer that came at {@code answeredNanos}.
	 */
	boolean takeRenewal(Lease renewal, long answeredNanos) {
		int end = this.end.get();
		// A hold being released takes the renewal even past its deadline: Redis holds
		// what the renewal wrote (a timestamp, under the timestamp protocol), and the
		// release, which waited for this renewal, must compare with that.
		if (end > RELEASING || (end == HELD && this.lease.isExpired(answeredNanos))) {
			return false;
		}
		this.lease = renewal;
		this.renewals++;
		this.evidence.renewalFailed(null);
		return true;
	}

	/**
	 * Whether the lease is still being renewed: taken without a lease of its own, and not
	 * past the hold limit. A hold lost while renewed lost a renewal; any other hold's
	 * lease simply ended.
	 */
	boolean renewedUntilLost() {
		return this.renewedByWatchdog && !this.evidence.renewalsCapped();
	}

	/**
	 * Return how many times the lease was renewed.
	 * @return the number of renewals
	 */
	public int renewals() {
		return this.renewals;
	}

	/**
	 * Whether the hold is lost at the given time: marked lost, or past its deadline.
	 * @param nowNanos {@link System#nanoTime()}
	 * @return whether it is lost
	 */
	public boolean isLost(long nowNanos) {
		return this.end.get() > RELEASING || this.lease.isExpired(nowNanos);
	}

	/** Whether the hold has ended: released or lost. */
	boolean hasEnded() {
		return this.end.get() != HELD;
	}

	/** Whether the owner is releasing the hold (or has): it cleans up after itself. */
	boolean isReleasing() {
		return this.end.get() == RELEASING;
	}

	/**
	 * Mark the hold lost, if it has not ended yet, and run its loss action: {@code true}
	 * for the first end, {@code false} if it was already releasing or lost.
	 */
	boolean markLost(LockLostEvent.Reason reason) {
		if (!this.end.compareAndSet(HELD, RELEASING + 1 + reason.ordinal())) {
			if (this.end.get() == RELEASING && this.lossWhileReleasing == null) {
				// Found lost by a renewal the release waited for: its key must not pass
				// to another hold of this JVM, and the release reports the loss whatever
				// it finds.
				this.lossWhileReleasing = reason;
			}
			return false;
		}
		this.lossAction.run();
		return true;
	}

	/** Whether it was found lost (a renewal rejected, a force release) once releasing. */
	boolean foundLostWhileReleasing() {
		return this.lossWhileReleasing != null;
	}

	/** Give up the hold's state in this JVM: {@code true} for the first, who frees it. */
	boolean leaveState() {
		return this.stateLeft.compareAndSet(false, true);
	}

	/** Whether a thread owns the hold; other owners may never release a lost hold. */
	boolean ownedByThread() {
		return this.owner instanceof Thread;
	}

	/** Start the release: {@code true} if it wins, {@code false} if the hold was lost. */
	boolean beginRelease() {
		return this.end.compareAndSet(HELD, RELEASING);
	}

	/** How the hold was marked lost, or found lost while released; or {@code null}. */
	LockLostEvent.Reason lostReason() {
		int state = this.end.get();
		return (state > RELEASING) ? REASONS[state - RELEASING - 1] : this.lossWhileReleasing;
	}

	int holdCount() {
		return this.count;
	}

	void enter() {
		this.count++;
	}

	/** Count one exit of a reentrant hold: whether the owner still holds it after. */
	boolean exit() {
		// A loss action belongs to the entry that asked for it (an inner @DistributedLock
		// call), not to the outer code that goes on holding.
		this.lossAction.entryEnded(this.count);
		return --this.count > 0;
	}

	/**
	 * Return the exception that tells the owner the hold was lost {@code when} (a phrase:
	 * "before unlock()"), and why.
	 */
	LockLostException lostException(String when) {
		return this.evidence.explain(key(), lostReason(), this.renewedByWatchdog, this.lease, when);
	}

}
