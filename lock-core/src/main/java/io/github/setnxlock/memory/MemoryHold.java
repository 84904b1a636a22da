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
package io.github.setnxlock.memory;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import io.github.setnxlock.LockLostException;

/**
 * One hold of a key in a {@link LockSpace}: a thread's (reentrant, counted) or an
 * asynchronous handle's, or the stand-in that keeps a key after
 * {@link io.github.setnxlock.LeasedLock#unlockKeepingFor(Duration)}. It ends when it is
 * released, when its lease of its own ends, or, for a thread's hold without a lease, when
 * its thread dies (as the Redis registry stops renewing it). The space's monitor guards
 * every field the space writes; the entry count belongs to the owning thread.
 *
 * @author setnx-lock authors
 */
final class MemoryHold {

	final String key;

	final String name;

	/** The thread that holds it, {@code null} for a hold of no thread. */
	final Thread owner;

	/** The lease it was taken with, or {@code null} for a hold kept until released. */
	private volatile Duration lease;

	private volatile long leaseEndNanos;

	private volatile boolean ended;

	/** Entries not yet unlocked; only the owning thread counts. */
	int count = 1;

	/** Drawn on the first request; 0 before. */
	long fencingToken;

	/** What {@code interruptOnLoss} asked for first; runs once. */
	Runnable onLoss;

	/** The entry (hold count) that asked for {@link #onLoss}: it goes when that ends. */
	int onLossEntry;

	/** Whether the space has found it lost and told its owner. */
	boolean lossReported;

	ScheduledFuture<?> leaseTimer;

	/** The timer's look at whether its thread is still alive, while others wait. */
	ScheduledFuture<?> ownerWatch;

	MemoryHold(String key, String name, Duration lease, Thread owner, long nowNanos) {
		this.key = key;
		this.name = name;
		this.owner = owner;
		this.lease = lease;
		this.leaseEndNanos = (lease != null) ? nowNanos + lease.toNanos() : 0;
	}

	boolean isLeased() {
		return this.lease != null;
	}

	/**
	 * Whether the lease of its own has ended; a hold without one never ends by itself.
	 */
	boolean isExpired(long nowNanos) {
		return this.lease != null && nowNanos - this.leaseEndNanos >= 0;
	}

	/**
	 * Whether it is a thread's hold without a lease whose thread died: nobody is left to
	 * release it. A hold with a lease runs to its lease's end, as in Redis.
	 */
	boolean isAbandoned() {
		return this.lease == null && this.owner != null && !this.owner.isAlive();
	}

	/**
	 * Whether it holds its key: not released, not expired and not abandoned.
	 */
	boolean isHeld(long nowNanos) {
		return !this.ended && !isExpired(nowNanos) && !isAbandoned();
	}

	/**
	 * Whether its thread should be watched while others wait for its key: only the death
	 * of that thread can end it.
	 */
	boolean needsOwnerWatch() {
		return this.lease == null && this.owner != null && !this.ended;
	}

	/**
	 * Return how long until its lease ends, {@link Long#MAX_VALUE} without one.
	 */
	long nanosLeft(long nowNanos) {
		return (this.lease != null) ? Math.max(0, this.leaseEndNanos - nowNanos) : Long.MAX_VALUE;
	}

	void newLease(Duration lease, long nowNanos) {
		this.lease = lease;
		this.leaseEndNanos = nowNanos + lease.toNanos();
	}

	boolean hasEnded() {
		return this.ended;
	}

	void end() {
		this.ended = true;
		if (this.leaseTimer != null) {
			this.leaseTimer.cancel(false);
			this.leaseTimer = null;
		}
		if (this.ownerWatch != null) {
			this.ownerWatch.cancel(false);
			this.ownerWatch = null;
		}
		this.onLoss = null;
	}

	LockLostException lostException(String when) {
		return new LockLostException(this.key,
				"Lock '" + this.key + "' was lost " + when + ": its lease of " + this.lease
						+ " ended (the in-memory registry has no other way to lose a lock while its thread lives)");
	}

}
