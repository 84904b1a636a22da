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

package io.github.setnxlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.KeyStates.Hold;
import io.github.setnxlock.redis.KeyStates.KeyState;

/**
 * The registry's watchdog: extends the leases of the holds taken without a lease of their
 * own once a third of a lease has passed since it was last sent, in one pipelined round
 * trip for all the holds whose leases are at least a sixth used, and finds out which
 * holds are lost.
 * <p>
 * Its one thread never waits for Redis: it looks every sixth of a lease (and at once for
 * a hold whose acquisition took so long that its lease is already due), hands a batch to
 * the {@link CommandRunner}, and goes on checking deadlines while the batch is out; only
 * one batch is out at a time. A renewal answered "not ours" loses the hold at once. One
 * that fails is tried again a twelfth of the lease later; an answer that comes after the
 * holder's own deadline is ignored, and the hold is lost at that deadline. A hold that
 * has lasted {@code maxHold} is no longer renewed and ends with its lease, and so does
 * one whose thread died without releasing it (its state in this JVM is dropped). A lost
 * hold is reported once, frees the key's slot for the other threads of this JVM, and
 * interrupts its thread if asked to; holds that asked are also watched at their
 * deadlines.
 *
 * @author setnx-lock authors
 */
final class LeaseRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final LockCommands commands;

	private final CommandRunner runner;

	private final KeyStates states;

	private final Duration lease;

	/** How old a lease may get before it is renewed: a third of it. */
	private final long dueNanos;

	/**
	 * The tick: half of {@link #dueNanos}, so a lease is renewed before it is half used.
	 */
	private final long periodNanos;

	private final Duration maxHold;

	private final LockEvents events;

	private final Map<Hold, Tracked> renewed = new ConcurrentHashMap<>();

	private final ScheduledThreadPoolExecutor scheduler;

	private volatile ScheduledFuture<?> ticks;

	/** The batch out at Redis, if any. Written by the renewal thread only. */
	private volatile Batch inFlight;

	private final ReentrantLock batchLock = new ReentrantLock();

	private final AtomicLong batches = new AtomicLong();

	/** Whether the last renewals failed; read and written by the renewal thread only. */
	private boolean failing;

	private final AtomicLong renewals = new AtomicLong();

	LeaseRenewer(LockCommands commands, CommandRunner runner, KeyStates states, Duration lease, Duration maxHold,
			LockEvents events) {
		this.commands = commands;
		this.runner = runner;
		this.states = states;
		this.lease = lease;
		this.dueNanos = Math.max(2, lease.toNanos() / 3);
		this.periodNanos = this.dueNanos / 2;
		this.maxHold = maxHold;
		this.events = events;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "setnx-lock-renewal");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	/**
	 * Renew a hold until it is released or lost.
	 * @param tracked the hold
	 */
	void renew(Tracked tracked) {
		this.renewed.put(tracked.hold(), tracked);
		if (this.ticks == null) {
			synchronized (this) {
				if (this.ticks == null) {
					this.ticks = this.scheduler.scheduleWithFixedDelay(this::tick, this.periodNanos, this.periodNanos,
							TimeUnit.NANOSECONDS);
				}
			}
		}
		if (System.nanoTime() - tracked.hold().lease().sentNanos() >= this.dueNanos) {
			// A slow acquisition (a first connection, a busy server) used up much of the
			// lease already: renew now rather than at the next tick.
			this.scheduler.execute(this::tick);
		}
	}

	/**
	 * Stop renewing a hold that is being released, once a renewal of it that is out at
	 * Redis has come back, so that the renewal cannot undo what the release writes; but
	 * wait no longer than a deadline (the holder's own, for {@code unlock()}), past which
	 * the hold is lost anyway.
	 * @param hold the hold
	 * @param deadlineNanos the {@link System#nanoTime()} to wait until at most
	 */
	void stop(Hold hold, long deadlineNanos) {
		this.renewed.remove(hold);
		Batch batch;
		this.batchLock.lock();
		try {
			batch = this.inFlight;
		}
		finally {
			this.batchLock.unlock();
		}
		if (batch != null && batch.holds().contains(hold)) {
			try {
				CommandRunner.awaitUninterrupted(batch.answer(), deadlineNanos);
			}
			catch (TimeoutException ex) {
				// Redis has not answered by the holder's deadline: the hold is lost, and
				// its release goes out all the same.
			}
			catch (RuntimeException ex) {
				// The renewal failed: nothing to undo.
			}
		}
	}

	/**
	 * Interrupt the hold's thread when the hold is lost, watching its deadline too.
	 * @param tracked the hold
	 */
	void interruptOnLoss(Tracked tracked) {
		if (tracked.hold().requestInterruptOnLoss()) {
			watchDeadline(tracked);
		}
	}

	private void watchDeadline(Tracked tracked) {
		Hold hold = tracked.hold();
		long delay = hold.lease().deadlineNanos() - System.nanoTime();
		this.scheduler.schedule(() -> {
			if (hold.hasEnded()) {
				return;
			}
			if (hold.isLost(System.nanoTime())) {
				lost(tracked, hold.renewed ? Reason.RENEWAL_FAILED : Reason.LEASE_ENDED);
			}
			else {
				watchDeadline(tracked);
			}
		}, Math.max(0, delay), TimeUnit.NANOSECONDS);
	}

	/**
	 * Return how many holds are being renewed.
	 * @return the number of holds
	 */
	int size() {
		return this.renewed.size();
	}

	/**
	 * Return how many tasks wait on the renewal thread's schedule.
	 * @return the number of tasks
	 */
	int scheduledTasks() {
		return this.scheduler.getQueue().size();
	}

	/**
	 * Return how many batches of renewals were sent, one round trip each.
	 * @return the number of batches
	 */
	long batches() {
		return this.batches.get();
	}

	/**
	 * Return how many leases were extended.
	 * @return the number of renewals
	 */
	long renewals() {
		return this.renewals.get();
	}

	private void tick() {
		try {
			check();
		}
		catch (RuntimeException ex) {
			// The schedule must survive anything, or held locks would silently expire.
			logger.error("Lease renewal failed", ex);
		}
	}

	private void check() {
		long now = System.nanoTime();
		List<Tracked> batch = new ArrayList<>();
		boolean due = false;
		for (Tracked tracked : this.renewed.values()) {
			Hold hold = tracked.hold();
			if (hold.hasEnded()) {
				this.renewed.remove(hold);
			}
			else if (hold.isLost(now)) {
				lost(tracked, Reason.RENEWAL_FAILED);
			}
			else if (!hold.thread.isAlive()) {
				abandoned(tracked);
			}
			else if (this.maxHold != null && now - hold.acquiredNanos >= this.maxHold.toNanos()) {
				// Past the limit the hold ends with its lease; unlock() reports it.
				this.renewed.remove(hold);
			}
			else {
				long age = now - hold.lease().sentNanos();
				due |= age >= this.dueNanos;
				// Leases a sixth used or more go along with the due ones, so that the
				// holds of a registry share their round trips.
				if (age >= this.periodNanos) {
					batch.add(tracked);
				}
			}
		}
		if (due && this.inFlight == null) {
			send(batch);
		}
	}

	private void send(List<Tracked> candidates) {
		List<Tracked> batch;
		CompletableFuture<List<RenewalResult>> answer = new CompletableFuture<>();
		// A holder that starts releasing either is left out here, or finds this batch in
		// flight and waits for it (see stop), so a renewal never lands after a release.
		this.batchLock.lock();
		try {
			batch = candidates.stream().filter((tracked) -> !tracked.hold().hasEnded()).toList();
			if (batch.isEmpty()) {
				return;
			}
			this.inFlight = new Batch(Set.copyOf(batch.stream().map(Tracked::hold).toList()), answer);
		}
		finally {
			this.batchLock.unlock();
		}
		List<LockKey> keys = batch.stream().map(Tracked::key).toList();
		List<Lease> leases = batch.stream().map((tracked) -> tracked.hold().lease()).toList();
		this.batches.incrementAndGet();
		try {
			this.runner.submit(() -> this.commands.renew(keys, leases, this.lease)).whenComplete((results, failure) -> {
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
		answer.whenComplete((results, failure) -> this.scheduler.execute(() -> {
			this.inFlight = null;
			if (failure != null) {
				failed(batch, failure);
				batch.forEach((tracked) -> this.events
					.renewalEnded(new LockListener.Renewal(tracked.key().key(), tracked.name(), false)));
				retrySoon();
			}
			else {
				apply(batch, results);
			}
		}));
	}

	private void apply(List<Tracked> batch, List<RenewalResult> results) {
		boolean failed = false;
		for (int i = 0; i < batch.size(); i++) {
			Tracked tracked = batch.get(i);
			RenewalResult result = results.get(i);
			if (result.failure() == null) {
				this.events.renewalEnded(
						new LockListener.Renewal(tracked.key().key(), tracked.name(), result.renewed() != null));
			}
			if (result.renewed() != null) {
				this.failing = false;
				if (tracked.hold().renewed(result.renewed())) {
					this.renewals.incrementAndGet();
				}
				else if (!tracked.hold().hasEnded()) {
					// Answered after the holder's own deadline: the hold is lost already.
					lost(tracked, Reason.RENEWAL_FAILED);
				}
			}
			else if (result.rejected() != null) {
				lost(tracked, Reason.RENEWAL_REJECTED);
			}
			else {
				failed(List.of(tracked), result.failure());
				this.events.renewalEnded(new LockListener.Renewal(tracked.key().key(), tracked.name(), false));
				failed = true;
			}
		}
		if (failed) {
			retrySoon();
		}
	}

	/**
	 * Log a failed renewal: at WARN, with the keys and names, the first time after a
	 * success, at DEBUG while the failures go on. It is tried again until the holders'
	 * deadlines; a hold lost for it is logged once more (see {@link LockEvents}).
	 */
	private void failed(List<Tracked> holds, Throwable failure) {
		String locks = holds.stream()
			.map((tracked) -> "'" + tracked.key().key() + "'"
					+ (tracked.name().isEmpty() ? "" : " (" + tracked.name() + ")"))
			.toList()
			.toString();
		if (!this.failing) {
			this.failing = true;
			logger.warn("Could not renew the lease of lock(s) " + locks + "; trying again until their deadlines",
					failure);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Could not renew the lease of lock(s) " + locks + " again", failure);
		}
	}

	private void retrySoon() {
		this.scheduler.schedule(this::tick, Math.max(1, this.dueNanos / 4), TimeUnit.NANOSECONDS);
	}

	private void lost(Tracked tracked, Reason reason) {
		Hold hold = tracked.hold();
		this.renewed.remove(hold);
		if (!hold.markLost(reason)) {
			return;
		}
		tracked.state().holdChanged();
		if (hold.interruptOnLoss()) {
			hold.thread.interrupt();
		}
		this.events.lockLost(new LockLostEvent(tracked.key().key(), tracked.name(), reason, hold.thread.getName(),
				hold.lease().fencingToken(), Instant.now()));
	}

	/**
	 * Stop renewing the hold of a thread that died without releasing it, and drop its
	 * state in this JVM: the lock ends with its lease.
	 */
	private void abandoned(Tracked tracked) {
		Hold hold = tracked.hold();
		this.renewed.remove(hold);
		if (hold.markLost(Reason.LEASE_ENDED)) {
			logger.warn("Thread '" + hold.thread.getName() + "' died holding lock '" + tracked.key().key()
					+ "'; the lock ends with its lease");
			tracked.state().released(hold.thread, -1);
			this.states.release(tracked.key().redisKey(), tracked.state());
			RedisLeasedLock.stopObservation(hold, true);
			this.events.released(new LockListener.Release(tracked.key().key(), tracked.name(),
					Duration.ofNanos(System.nanoTime() - hold.acquiredNanos), true));
		}
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/**
	 * A hold the renewer looks after.
	 *
	 * @param key the lock's keys
	 * @param name the lock's logical name
	 * @param state the key's state in this JVM
	 * @param hold the hold
	 */
	record Tracked(LockKey key, String name, KeyState state, Hold hold) {

	}

	/**
	 * A batch of renewals out at Redis.
	 *
	 * @param holds the holds it renews
	 * @param answer its answer to come
	 */
	private record Batch(Set<Hold> holds, CompletableFuture<List<RenewalResult>> answer) {

	}

}
