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
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.observation.DefaultLockObservationConvention;
import io.github.setnxlock.observation.LockObservationContext;
import io.github.setnxlock.observation.LockObservationDocumentation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.github.setnxlock.redis.KeyStates.Hold;
import io.github.setnxlock.redis.KeyStates.KeyState;

/**
 * The {@link LeasedLock} of a {@link SetnxLockRegistry}: a light handle on one key. Any
 * number of handles for the same key share the registry's state for that key, so a thread
 * that holds the key through one handle holds it through all of them.
 * <p>
 * A thread first claims the key's slot in this JVM (see {@link KeyState}), so threads of
 * one JVM settle among themselves and only one of them at a time goes to Redis; it keeps
 * the slot while it holds the Redis lock and gives both back in {@link #unlock()}, Redis
 * first.
 *
 * @author setnx-lock authors
 */
final class RedisLeasedLock implements LeasedLock {

	/**
	 * Longer waits are treated as no limit, where nanosecond arithmetic cannot overflow.
	 */
	private static final Duration UNLIMITED_WAIT = Duration.ofNanos(Long.MAX_VALUE / 4);

	/** How long past the holder's deadline {@code unlock()} may still wait for Redis. */
	private static final long UNLOCK_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final SetnxLockRegistry registry;

	private final LockKey key;

	private final String name;

	RedisLeasedLock(SetnxLockRegistry registry, LockKey key, String name) {
		this.registry = registry;
		this.key = key;
		this.name = name;
	}

	@Override
	public String key() {
		return this.key.key();
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void lock() {
		try {
			acquire(AcquireLoop.FOREVER, null, false);
		}
		catch (InterruptedException ex) {
			// Not reachable: an uninterruptible wait keeps the interrupt instead.
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		acquire(AcquireLoop.FOREVER, null, true);
	}

	@Override
	public boolean tryLock() {
		try {
			return acquire(0, null, false);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		Objects.requireNonNull(unit, "unit must not be null");
		return acquire(Math.max(0, unit.toNanos(time)), null, true);
	}

	@Override
	public boolean tryLock(Duration wait) throws InterruptedException {
		return acquire(waitNanos(wait), null, true);
	}

	@Override
	public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
		long waitNanos = waitNanos(wait);
		SetnxLockSettings.checkLease("lease", lease);
		return acquire(waitNanos, lease, true);
	}

	private static long waitNanos(Duration wait) {
		if (wait == null) {
			throw new IllegalArgumentException("wait must not be null");
		}
		if (wait.isNegative()) {
			throw new IllegalArgumentException("wait must not be negative, but was " + wait);
		}
		return (wait.compareTo(UNLIMITED_WAIT) > 0) ? AcquireLoop.FOREVER : wait.toNanos();
	}

	/**
	 * Acquire the lock.
	 * @param waitNanos how long to wait
	 * @param explicitLease the caller's lease, or {@code null} for the registry's lease,
	 * renewed while held when the registry renews
	 * @param interruptible whether an interrupt ends the wait
	 */
	private boolean acquire(long waitNanos, Duration explicitLease, boolean interruptible) throws InterruptedException {
		this.registry.checkOpen(key());
		if (interruptible && Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + key() + "'");
		}
		long startNanos = System.nanoTime();
		Thread current = Thread.currentThread();
		KeyStates states = this.registry.states;
		KeyState state = states.retain(this.key.redisKey());
		boolean holding = false;
		try {
			Hold hold = state.holdOf(current);
			if (hold != null) {
				if (hold.isLost(System.nanoTime())) {
					throw lost(hold, "before this thread took it again; unlock() it to clear the hold");
				}
				hold.count++;
				// The existing hold keeps its own reference to the state.
				return true;
			}
			Result result = Result.ERROR;
			Attempt attempt = null;
			Observation wait = startObservation(LockObservationDocumentation.WAIT,
					DefaultLockObservationConvention.forWaits());
			try {
				if (!state.claimSlot(current, startNanos, waitNanos, interruptible)) {
					result = Result.TIMEOUT;
					return false;
				}
				boolean renewed = explicitLease == null && this.registry.settings.renewal();
				Duration lease = (explicitLease != null) ? explicitLease : this.registry.settings.leaseTime();
				try {
					attempt = this.registry.acquireLoop.acquire(this.key, state, this.registry.ownerTokens.next(),
							lease, startNanos, waitNanos, interruptible);
				}
				finally {
					holding = attempt != null;
					Hold acquired = holding ? new Hold(current, this.key, this.name, attempt.lease(), renewed) : null;
					if (acquired != null) {
						acquired.observation = startObservation(LockObservationDocumentation.HOLD,
								DefaultLockObservationConvention.forHolds());
					}
					state.acquired(current, acquired);
					if (acquired != null && renewed) {
						this.registry.renewer.renew(tracked(state, acquired));
					}
				}
				result = holding ? Result.ACQUIRED : Result.TIMEOUT;
				return holding;
			}
			catch (InterruptedException ex) {
				result = Result.INTERRUPTED;
				throw ex;
			}
			finally {
				stopObservation(wait, result.name().toLowerCase(Locale.ROOT));
				this.registry.events.acquisitionEnded(new LockListener.Acquisition(key(), this.name, result,
						Duration.ofNanos(System.nanoTime() - startNanos), attempt != null && attempt.tookOver()));
			}
		}
		finally {
			if (!holding) {
				states.release(this.key.redisKey(), state);
			}
		}
	}

	private LeaseRenewer.Tracked tracked(KeyState state, Hold hold) {
		return new LeaseRenewer.Tracked(this.key, this.name, state, hold);
	}

	@Override
	public void unlock() {
		release(null);
	}

	@Override
	public void unlockKeepingFor(Duration keep) {
		SetnxLockSettings.checkLease("keep", keep);
		release(keep);
	}

	private void release(Duration keep) {
		Thread current = Thread.currentThread();
		KeyState state = this.registry.states.find(this.key.redisKey());
		Hold hold = (state != null) ? state.holdOf(current) : null;
		if (hold == null) {
			throw new IllegalMonitorStateException("Lock '" + key() + "' is not held by the current thread");
		}
		boolean lostBefore = hold.isLost(System.nanoTime());
		if (hold.count > 1) {
			hold.count--;
			if (lostBefore) {
				report(hold, LockLostEvent.Reason.LEASE_ENDED);
				throw lost(hold, "before unlock()");
			}
			return;
		}
		if (lostBefore) {
			report(hold, LockLostEvent.Reason.LEASE_ENDED);
		}
		else if (!hold.beginRelease()) {
			// Found lost by the renewer a moment ago, which reported it.
			lostBefore = true;
		}
		// unlock() ends by the holder's deadline and a small margin (or, for a hold lost
		// already, that margin), whatever the command timeout: past it the hold is lost.
		long until = Math.max(hold.lease().deadlineNanos(), System.nanoTime()) + UNLOCK_MARGIN_NANOS;
		this.registry.renewer.stop(hold, until);
		long generationBeforeRelease = state.releaseGeneration();
		ReleaseResult result = null;
		try {
			// Sent even for a lost hold: the scripts only delete what is still ours.
			result = CommandRunner
				.awaitUninterrupted((keep != null) ? this.registry.commands.releaseKeeping(this.key, hold.lease(), keep)
						: this.registry.commands.release(this.key, hold.lease()), until);
		}
		catch (TimeoutException ex) {
			throw new LockAccessException(key(), "Redis did not answer the release of lock '" + key()
					+ "' before its lease ended: the lock counts as lost, and its key ends with its lease", ex);
		}
		finally {
			// Redis first: a local waiter must not find our key still there. It waits
			// for the release's message only if there is one, which waiters in other
			// JVMs hear at the same time.
			state.released(current,
					(result == ReleaseResult.RELEASED_AND_ANNOUNCED) ? generationBeforeRelease : KeyState.NO_HANDOFF);
			this.registry.states.release(this.key.redisKey(), state);
			// The hold ends here even when Redis gave no answer: its key then ends with
			// its
			// lease, and the hold counts as released unless its deadline passed first.
			boolean lost = lostBefore || ((result != null) ? !result.released() : hold.isLost(System.nanoTime()));
			stopObservation(hold, lost);
			this.registry.events.released(new LockListener.Release(key(), this.name,
					Duration.ofNanos(System.nanoTime() - hold.acquiredNanos), lost));
		}
		if (lostBefore) {
			throw lost(hold, "before unlock()");
		}
		if (result == ReleaseResult.NOT_OURS) {
			this.registry.events
				.lockLost(new LockLostEvent(key(), this.name, LockLostEvent.Reason.RELEASE_FOUND_ANOTHER_OWNER,
						hold.thread.getName(), hold.lease().fencingToken(), Instant.now()));
			throw new LockLostException(key(),
					"Lock '" + key() + "' was lost before unlock(): another client took it over or deleted it");
		}
		if (result == ReleaseResult.EXPIRED) {
			this.registry.events.lockLost(new LockLostEvent(key(), this.name, LockLostEvent.Reason.LEASE_ENDED,
					hold.thread.getName(), hold.lease().fencingToken(), Instant.now()));
			throw new LockLostException(key(), "Lock '" + key() + "' was lost before unlock(): its lease of "
					+ Duration.ofMillis(hold.lease().validityMillis()) + " ended");
		}
	}

	/**
	 * Start an observation; its context is only made when the registry observes.
	 */
	private Observation startObservation(LockObservationDocumentation documentation,
			DefaultLockObservationConvention convention) {
		ObservationRegistry observations = this.registry.observations;
		if (observations.isNoop()) {
			// Nothing observes: skip making the context supplier on every call.
			return Observation.NOOP;
		}
		return documentation
			.observation(null, convention, () -> new LockObservationContext(key(), this.name, protocol()), observations)
			.start();
	}

	static void stopObservation(Hold hold, boolean lost) {
		stopObservation(hold.observation, lost ? "lost" : "released");
	}

	private static void stopObservation(Observation observation, String result) {
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setResult(result);
		}
		observation.stop();
	}

	private String protocol() {
		return this.registry.settings.protocol().name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Tell the listeners of a loss the renewer did not already report.
	 */
	private void report(Hold hold, LockLostEvent.Reason reason) {
		if (hold.markLost(reason)) {
			this.registry.events.lockLost(new LockLostEvent(key(), this.name, reason, hold.thread.getName(),
					hold.lease().fencingToken(), Instant.now()));
		}
	}

	private LockLostException lost(Hold hold, String when) {
		LockLostEvent.Reason reason = hold.lostReason();
		String how = (reason == LockLostEvent.Reason.FORCE_RELEASED) ? "an operator released it by force"
				: (reason == LockLostEvent.Reason.RENEWAL_REJECTED) ? "a renewal found it taken over or deleted"
						: (reason == LockLostEvent.Reason.RENEWAL_FAILED)
								? "renewals could not reach Redis before the lease of "
										+ Duration.ofMillis(hold.lease().validityMillis()) + " ended"
								: "its lease of " + Duration.ofMillis(hold.lease().validityMillis()) + " ended";
		return new LockLostException(key(), "Lock '" + key() + "' was lost " + when + ": " + how);
	}

	@Override
	public boolean isHeldByCurrentThread() {
		Hold hold = currentThreadHold();
		return hold != null && !hold.isLost(System.nanoTime());
	}

	@Override
	public void checkHeld() {
		Hold hold = currentThreadHold();
		if (hold == null) {
			throw new IllegalMonitorStateException("Lock '" + key() + "' is not held by the current thread");
		}
		if (hold.isLost(System.nanoTime())) {
			throw lost(hold, "while held");
		}
	}

	@Override
	public void interruptOnLoss() {
		Hold hold = currentThreadHold();
		if (hold == null) {
			throw new IllegalMonitorStateException("Lock '" + key() + "' is not held by the current thread");
		}
		this.registry.renewer.interruptOnLoss(tracked(this.registry.states.find(this.key.redisKey()), hold));
	}

	@Override
	public boolean isLocked() {
		return this.registry.runner.runUninterrupted(() -> this.registry.commands.isLocked(this.key));
	}

	@Override
	public int holdCount() {
		Hold hold = currentThreadHold();
		return (hold != null) ? hold.count : 0;
	}

	@Override
	public long fencingToken() {
		checkHeld();
		return currentThreadHold().lease().fencingToken();
	}

	private Hold currentThreadHold() {
		KeyState state = this.registry.states.find(this.key.redisKey());
		return (state != null) ? state.holdOf(Thread.currentThread()) : null;
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Conditions are not supported by distributed locks");
	}

	@Override
	public String toString() {
		return "RedisLeasedLock[key='" + key() + "', redisKey='" + this.key.redisKey() + "']";
	}

}
