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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import io.github.setnxlock.redis.engine.Waits.Ticker;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * Local hand-off (lock cohorting): a release while another owner of this registry waits
 * for the key passes the Redis key to that owner without a round trip. The key keeps the
 * same owner token in Redis and its lease, so the new owner's deadline is the one the
 * released hold had, and the renewal of the new hold takes over from the released one's
 * (a new owner that wakes past that deadline asks Redis instead); the new hold is a hold
 * of its own, which draws its own fencing token when asked. Holds in Redis never overlap
 * any more than before: the released hold ends before the next one starts.
 * <p>
 * Only holds the registry renews pass on, to waiters that ask for the registry's lease
 * (an explicit lease would leave the key in Redis past it), and only with at least a
 * third of the lease left. Other processes are not starved: a waiter of another registry
 * marks the held key (token protocol). A hand-off reads the key for that mark, without
 * waiting for the answer, whenever no read is out; until a read has come back without a
 * mark, at most {@code maxHandoffs} hand-offs follow the last read sent, and once a mark
 * is known (from a read, from an announced release of ours, or from an acquisition that
 * waited behind a holder elsewhere), at most {@code maxHandoffs} more or {@code maxTime}
 * pass before a release goes back through Redis. That release wakes the waiter, and the
 * next owner here lets it go first (see {@link AcquireLoop#YIELD_NANOS}). The timestamp
 * protocol hands nothing over locally: clients of the documented pattern leave no mark.
 * <p>
 * A key that is not handed over passes through Redis: the next owner asks Redis once the
 * key's release message comes ({@link ReleaseSignal}), as waiters elsewhere do.
 *
 * @author setnx-lock authors
 */
final class LocalHandoff {

	private final boolean enabled;

	private final int maxHandoffs;

	private final long maxTimeNanos;

	private final LockCommands commands;

	private final LongAdder handoffs = new LongAdder();

	/** The clock of the runs' time bound, the slot's. */
	private final Ticker ticker;

	LocalHandoff(boolean enabled, int maxHandoffs, Duration maxTime, LockCommands commands, Ticker ticker) {
		this.enabled = enabled && maxHandoffs > 0 && commands.marksWaiters();
		this.maxHandoffs = maxHandoffs;
		this.maxTimeNanos = maxTime.toNanos();
		this.commands = commands;
		this.ticker = ticker;
	}

	/** Whether releases hand over locally at all: on, and under the token protocol. */
	boolean enabled() {
		return this.enabled;
	}

	/**
	 * Whether a hold being released may pass its key to a waiter that takes a hand-off;
	 * if so, the hand-off is counted in the key's run. Called with the key's slot locked.
	 */
	boolean allows(Run run, Hold hold, long nowNanos) {
		if (!this.enabled || !hold.renewedByWatchdog) {
			return false;
		}
		Lease lease = hold.lease();
		if (lease.deadlineNanos() - nowNanos < TimeUnit.MILLISECONDS.toNanos(lease.validityMillis()) / 3) {
			return false;
		}
		return run.oneMore(this.maxHandoffs, this.maxTimeNanos, nowNanos);
	}

	/**
	 * After a hand-off: count it, and read the key for a waiter's mark if no read was
	 * sent for a while. The read is not waited for.
	 */
	void handedOff(Hold hold) {
		this.handoffs.increment();
		Run run = hold.state.slot.run;
		if (run.startCheck()) {
			this.commands.waiterMarked(hold.key, hold.lease())
				// A read that failed rules nobody out.
				.whenComplete((marked, failure) -> run.checked(failure != null || Boolean.TRUE.equals(marked),
						this.ticker.read()));
		}
	}

	long count() {
		return this.handoffs.sum();
	}

	/** What the local hand-offs of one key know since it was last taken in Redis. */
	static final class Run {

		/** When another registry's waiter was first known to wait, or 0. */
		private long remoteSeenNanos;

		/** Hand-offs since then. */
		private int sinceSeen;

		/** Hand-offs since the last read for a mark was sent. */
		private int sinceCheck;

		private boolean checking;

		/** Whether the last release through Redis of this registry was announced. */
		private boolean lastReleaseAnnounced;

		synchronized boolean oneMore(int maxHandoffs, long maxTimeNanos, long nowNanos) {
			if (this.remoteSeenNanos != 0) {
				if (this.sinceSeen >= maxHandoffs || nowNanos - this.remoteSeenNanos >= maxTimeNanos) {
					return false;
				}
				this.sinceSeen++;
				return true;
			}
			// Not known yet: no more hand-offs than the bound before a read of the key
			// has said that nobody elsewhere waits.
			if (this.sinceCheck >= maxHandoffs) {
				return false;
			}
			this.sinceCheck++;
			return true;
		}

		synchronized boolean startCheck() {
			if (this.checking || this.remoteSeenNanos != 0) {
				return false;
			}
			this.checking = true;
			this.sinceCheck = 0;
			return true;
		}

		synchronized void checked(boolean marked, long nowNanos) {
			this.checking = false;
			if (marked) {
				seen(nowNanos);
			}
		}

		/** The key was released through Redis: an announced release found a mark. */
		synchronized void releasedInRedis(boolean announced) {
			this.lastReleaseAnnounced = announced;
		}

		/**
		 * The key was taken in Redis: a new run, which knows of another registry's waiter
		 * if the last release was announced, or the acquisition waited behind a holder
		 * elsewhere.
		 */
		synchronized void takenInRedis(long nowNanos, boolean waited) {
			this.remoteSeenNanos = 0;
			this.sinceSeen = 0;
			this.sinceCheck = 0;
			if (this.lastReleaseAnnounced || waited) {
				seen(nowNanos);
			}
		}

		synchronized boolean remoteKnown() {
			return this.remoteSeenNanos != 0;
		}

		private void seen(long nowNanos) {
			if (this.remoteSeenNanos == 0) {
				this.remoteSeenNanos = (nowNanos != 0) ? nowNanos : 1;
				this.sinceSeen = 0;
			}
		}

	}

	/**
	 * The release messages of one key in this JVM.
	 * <p>
	 * Each message counts one <em>release generation</em> up, and a waiter that noted the
	 * generation before it asked Redis waits only while it stays the same, so a message
	 * that arrives between Redis's answer and the wait is not missed. An acquisition
	 * waits by leaving a callback ({@link #whenAnnounced}) that the next message runs, on
	 * the thread that delivers it.
	 */
	static final class ReleaseSignal {

		private final ReentrantLock lock = new ReentrantLock();

		/** Guarded by {@link #lock}. */
		private long releaseGeneration;

		/** Callbacks for the next message; guarded by the lock. */
		private final List<Runnable> callbacks = new ArrayList<>();

		/** Return the release generation: the release messages of the key so far. */
		long generation() {
			this.lock.lock();
			try {
				return this.releaseGeneration;
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Count a release message (or the news that messages may have been missed) and
		 * run the callbacks waiting for one.
		 */
		void announced() {
			List<Runnable> due;
			this.lock.lock();
			try {
				this.releaseGeneration++;
				if (this.callbacks.isEmpty()) {
					return;
				}
				due = new ArrayList<>(this.callbacks);
				this.callbacks.clear();
			}
			finally {
				this.lock.unlock();
			}
			due.forEach(Runnable::run);
		}

		/**
		 * Run a callback, once, when a release message newer than the generation noted
		 * before Redis was last asked arrives: at once, on the caller's thread, if one
		 * has; else on the thread that delivers it, which it must not block.
		 */
		void whenAnnounced(long seenGeneration, Runnable callback) {
			this.lock.lock();
			try {
				if (this.releaseGeneration == seenGeneration) {
					this.callbacks.add(callback);
					return;
				}
			}
			finally {
				this.lock.unlock();
			}
			callback.run();
		}

		/** Drop a callback given to {@link #whenAnnounced}: its pause ended first. */
		void forget(Runnable callback) {
			this.lock.lock();
			try {
				this.callbacks.remove(callback);
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Return how many acquisitions wait for a release message of this key: a test's
		 * handshake that a waiter is parked on Redis's answer, not still on its way
		 * there.
		 */
		public int waiters() {
			this.lock.lock();
			try {
				return this.callbacks.size();
			}
			finally {
				this.lock.unlock();
			}
		}

	}

}
