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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.engine.HoldWatch.RenewalSchedule;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * The registry's watchdog: extends the leases of the holds taken without a lease of their
 * own once a third of a lease has passed since it was last sent, in one pipelined round
 * trip for all the holds whose leases are at least a sixth used, and finds out which
 * holds are lost.
 * <p>
 * Its one thread never waits for Redis: it looks every sixth of a lease (and at once for
 * a hold whose acquisition took so long that its lease is already due), hands a batch to
 * the gateway ({@link RenewalBatches}), and goes on checking deadlines while the batch is
 * out; only one batch is out at a time. A renewal answered "not ours" loses the hold at
 * once. One that fails is tried again a twelfth of the lease later; an answer that comes
 * after the holder's own deadline is ignored, and the hold is lost at that deadline. A
 * hold that has lasted {@code maxHold} is no longer renewed and ends with its lease, and
 * so does one whose thread died without releasing it (its state in this JVM is dropped).
 * A lost hold is reported once, frees the key's slot for the other threads of this JVM,
 * and interrupts its thread if asked to; holds that asked are also watched at their
 * deadlines.
 *
 * @author setnx-lock authors
 */
final class LeaseRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final LockCommands commands;

	/** When a lease is due, and which go along with a due one. */
	private final RenewalSchedule schedule;

	private final LockEvents events;

	/**
	 * The holds looked after: renewed ones, and explicit leases watched for dead owners.
	 */
	private final Set<Hold> watched = ConcurrentHashMap.newKeySet();

	private final Consumer<Hold> abandoned;

	/** Its one thread, shared as the engine's timer. */
	final RenewalThread thread;

	private final ScheduledThreadPoolExecutor scheduler;

	private final RenewalBatches batches;

	private volatile ScheduledFuture<?> ticks;

	LeaseRenewer(LockCommands commands, Duration lease, Duration maxHold, LockEvents events, Consumer<Hold> abandoned) {
		this.commands = commands;
		this.abandoned = abandoned;
		this.schedule = RenewalSchedule.of(lease, maxHold);
		this.events = events;
		this.thread = new RenewalThread();
		this.scheduler = this.thread.scheduler;
		this.batches = new RenewalBatches(commands, lease, events, this);
	}

	/**
	 * Look after a hold until it is released or lost: renew its lease if the engine
	 * renews it, and in any case drop it when its owner dies without releasing it.
	 */
	void renew(Hold hold) {
		this.watched.add(hold);
		try {
			// Under the lock that stops idle ticks, so that a tick cannot stop them after
			// it missed this hold.
			synchronized (this) {
				if (this.ticks == null) {
					this.ticks = this.scheduler.scheduleWithFixedDelay(this::tick, this.schedule.periodNanos(),
							this.schedule.periodNanos(), TimeUnit.NANOSECONDS);
				}
			}
			if (!hold.renewedByWatchdog) {
				watchLeaseEnd(hold);
			}
			else if (System.nanoTime() - hold.lease().sentNanos() >= this.schedule.dueNanos()) {
				// A slow acquisition (a first connection, a busy server) used up much of
				// the lease already: renew now rather than at the next tick.
				this.scheduler.execute(this::tick);
			}
		}
		catch (RejectedExecutionException ex) {
			// Closed meanwhile: the hold is its owner's all the same, and ends with
			// its lease.
		}
	}

	/**
	 * Stop renewing and watching a hold, and return what of its writes is still out at
	 * Redis (a renewal, an extension), completed once answered, whatever the answer: or
	 * {@code null} when none is.
	 */
	CompletableFuture<Void> stop(Hold hold) {
		this.watched.remove(hold);
		hold.lossAction.drop();
		stopLeaseEndWatch(hold);
		CompletableFuture<Void> renewal = this.batches.renewalOf(hold);
		CompletableFuture<Void> extension = hold.extension.get();
		// Every release passes here: no stream, no array for the usual case of none.
		if (renewal == null && extension == null) {
			return null;
		}
		return CompletableFuture
			.allOf((renewal != null) ? renewal : CompletableFuture.completedFuture(null),
					(extension != null) ? extension : CompletableFuture.completedFuture(null))
			.handle((ignored, failure) -> null);
	}

	/** Run an action when the hold is lost, watching its deadline too. */
	void onLoss(Hold hold, Runnable action) {
		if (hold.lossAction.request(action, hold.holdCount())) {
			watchDeadline(hold);
		}
	}

	private void watchDeadline(Hold hold) {
		hold.lossAction.watching(this.scheduler.schedule(() -> {
			if (hold.hasEnded() || !hold.lossAction.isRequested()) {
				return;
			}
			if (hold.isLost(System.nanoTime())) {
				lost(hold, hold.renewedUntilLost() ? Reason.RENEWAL_FAILED : Reason.LEASE_ENDED);
			}
			else {
				watchDeadline(hold);
			}
		}, Math.max(0, hold.lease().deadlineNanos() - System.nanoTime()), TimeUnit.NANOSECONDS));
	}

	int size() {
		return (int) this.watched.stream().filter((hold) -> !hold.hasEnded() && hold.renewedUntilLost()).count();
	}

	long batches() {
		return this.batches.batches();
	}

	long renewals() {
		return this.batches.renewals();
	}

	private void tick() {
		try {
			check();
		}
		catch (RuntimeException ex) {
			// The schedule must survive anything, or held locks would silently expire.
			logger.error("Lease renewal failed", ex);
		}
		stopTicksWhenIdle();
	}

	/**
	 * Stop ticking while nothing is watched, so that the renewal thread of an idle
	 * registry ends (see the scheduler's keep-alive); the next hold starts the ticks
	 * again.
	 */
	private synchronized void stopTicksWhenIdle() {
		if (this.watched.isEmpty() && this.ticks != null) {
			this.ticks.cancel(false);
			this.ticks = null;
		}
	}

	private void check() {
		long now = System.nanoTime();
		List<Hold> batch = new ArrayList<>();
		boolean due = false;
		for (Hold hold : this.watched) {
			switch (this.schedule.look(hold, now)) {
				case FORGET -> this.watched.remove(hold);
				case ABANDONED -> ownerDied(hold, false);
				case LOST -> lost(hold, Reason.RENEWAL_FAILED);
				case CAP -> {
					// Past the limit the hold ends with its lease, reported when it does.
					hold.evidence.capRenewals();
					watchLeaseEnd(hold);
				}
				case DUE -> {
					due = true;
					batch.add(hold);
				}
				case ALONG -> batch.add(hold);
				case WATCH_OWNER, FRESH -> {
				}
			}
		}
		if (due && this.batches.isIdle()) {
			this.batches.send(batch);
		}
	}

	void retrySoon() {
		this.scheduler.schedule(this::tick, Math.max(1, this.schedule.dueNanos() / 4), TimeUnit.NANOSECONDS);
	}

	void lost(Hold hold, Reason reason) {
		if (hold.markLost(reason)) {
			hold.state.holdChanged();
			this.events.lost(hold, reason);
			if (!hold.ownedByThread()) {
				// Nobody may ever release a hold no thread owns: its state in this JVM
				// goes now; a release that comes later still tells of the loss.
				this.watched.remove(hold);
				this.abandoned.accept(hold);
			}
		}
	}

	/**
	 * Report a lease nobody renews (an explicit one, or one past the hold limit) as lost
	 * when it ends, rather than when its owner next looks: its owner may be busy, or, for
	 * a hold no thread owns, never come back. An extension meanwhile moves the watch on.
	 */
	private void watchLeaseEnd(Hold hold) {
		try {
			hold.leaseEndWatch = this.scheduler.schedule(() -> {
				if (hold.hasEnded()) {
					return;
				}
				if (hold.isLost(System.nanoTime())) {
					lost(hold, Reason.LEASE_ENDED);
				}
				else {
					watchLeaseEnd(hold);
				}
			}, Math.max(0, hold.lease().deadlineNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Closed: the hold ends with its lease, and its owner hears at unlock().
		}
		if (hold.isReleasing()) {
			// Released meanwhile, perhaps before the timer was noted.
			stopLeaseEndWatch(hold);
		}
	}

	private static void stopLeaseEndWatch(Hold hold) {
		Future<?> watch = hold.leaseEndWatch;
		if (watch != null) {
			watch.cancel(false);
		}
	}

	/**
	 * Stop looking after the hold of an owner that died without releasing it: the lock
	 * ends with its lease, or at once where the protocol can end it, or the store that
	 * found the death ({@code endedByStore}) ends the key itself.
	 */
	void ownerDied(Hold hold, boolean endedByStore) {
		this.watched.remove(hold);
		if (hold.markLost(Reason.LEASE_ENDED)) {
			boolean ended = endedByStore || this.commands.endDeadHolder(hold.key, hold.lease());
			logger
				.warn("Thread '" + hold.ownerName() + "' died holding lock " + LockEvents.quoted(hold.key(), hold.name)
						+ (ended ? "; the lock ends now" : "; the lock ends with its lease"));
		}
		// Lost before or not, the hold is dropped: nobody is left to unlock it.
		this.abandoned.accept(hold);
	}

	@Override
	public void close() {
		this.thread.close();
	}

}
