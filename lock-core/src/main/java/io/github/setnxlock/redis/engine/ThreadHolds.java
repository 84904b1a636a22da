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
import java.util.Locale;

import io.micrometer.observation.Observation;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * Holds that a thread waits for: the blocking acquisition of the
 * {@link java.util.concurrent.locks.Lock} view, reentrant per owner. Internal API of the
 * {@link LockEngine}; {@link AsyncHolds} is its counterpart without a waiting thread.
 * <p>
 * The owner first claims its key's slot in this JVM ({@link Slot#claim}), so the threads
 * of one JVM settle among themselves and only one of them at a time goes to Redis; then
 * it takes a key handed over by a local release, or runs the {@link AcquireLoop}. A win
 * becomes a {@link Hold} that the renewer looks after; listeners hear of the acquisition
 * on the caller's thread.
 *
 * @author setnx-lock authors
 */
final class ThreadHolds {

	private final EngineSettings settings;

	private final KeyStates states;

	private final OwnerTokens ownerTokens;

	private final AcquireLoop acquireLoop;

	private final LeaseRenewer renewer;

	private final HoldObservations observations;

	private final LockEvents events;

	ThreadHolds(EngineSettings settings, KeyStates states, OwnerTokens ownerTokens, AcquireLoop acquireLoop,
			LeaseRenewer renewer, HoldObservations observations, LockEvents events) {
		this.settings = settings;
		this.states = states;
		this.ownerTokens = ownerTokens;
		this.acquireLoop = acquireLoop;
		this.renewer = renewer;
		this.observations = observations;
		this.events = events;
	}

	/**
	 * Acquire a lock for an owner, or take it again if the owner holds it already.
	 * @param key the lock
	 * @param name its logical name
	 * @param owner who holds it: a thread, for the thread-bound view
	 * @param explicitLease the caller's lease, never renewed; or {@code null} for the
	 * registry's, renewed while held when the registry renews
	 * @param waitNanos {@link LockEngine#FOREVER}, {@code 0} for one attempt, or a time
	 * @param interruptible whether an interrupt ends the wait; if not, it is kept
	 * @return the hold, or {@code null} when the wait ended first
	 * @throws InterruptedException if interruptible and interrupted
	 * @throws LockLostException if the owner's hold was lost and not yet released
	 */
	Hold acquire(LockKey key, String name, Object owner, Duration explicitLease, long waitNanos, boolean interruptible)
			throws InterruptedException {
		if (interruptible && Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + key.key() + "'");
		}
		long startNanos = System.nanoTime();
		KeyState state = this.states.retain(key.redisKey());
		Hold acquired = null;
		boolean holding = false;
		try {
			Hold hold = state.holdOf(owner);
			if (hold != null) {
				if (hold.isLost(System.nanoTime())) {
					throw hold.lostException("before this thread took it again; unlock() it to clear the hold");
				}
				hold.enter();
				// The existing hold keeps its own reference to the state.
				return hold;
			}
			Result result = Result.ERROR;
			Attempt attempt = null;
			Observation wait = this.observations.startWait(key, name);
			try {
				boolean renewed = explicitLease == null && this.settings.renewal();
				if (!state.claimSlot(owner, startNanos, waitNanos, interruptible, renewed)) {
					result = Result.TIMEOUT;
					return null;
				}
				Duration lease = (explicitLease != null) ? explicitLease : this.settings.leaseTime();
				long acquiredNanos = 0;
				try {
					Lease handed = state.takeHandedLease();
					if (handed != null && handed.isExpired(System.nanoTime())) {
						// Woken too late to use it (its renewal stopped with the released
						// hold): the key ends with that lease, and Redis decides.
						handed = null;
					}
					if (handed != null) {
						attempt = Attempt.acquired(handed);
						acquiredNanos = System.nanoTime();
					}
					else {
						attempt = this.acquireLoop.acquire(key, state, this.ownerTokens.next(), lease, startNanos,
								waitNanos, interruptible);
						if (attempt != null) {
							acquiredNanos = attempt.lease().sentNanos();
						}
					}
				}
				finally {
					if (attempt != null) {
						acquired = new Hold(owner, key, name, state, attempt.lease(), renewed, acquiredNanos);
						acquired.observation = this.observations.startHold(key, name);
					}
					state.acquired(owner, acquired);
					holding = acquired != null;
					if (holding) {
						this.renewer.renew(acquired);
					}
				}
				result = (acquired != null) ? Result.ACQUIRED : Result.TIMEOUT;
				return acquired;
			}
			catch (InterruptedException ex) {
				result = Result.INTERRUPTED;
				throw ex;
			}
			finally {
				HoldObservations.stop(wait, result.name().toLowerCase(Locale.ROOT));
				this.events.acquisitionEnded(new LockListener.Acquisition(key.key(), name, result,
						Duration.ofNanos(System.nanoTime() - startNanos), attempt != null && attempt.tookOver()));
			}
		}
		finally {
			if (!holding) {
				this.states.release(key.redisKey(), state);
			}
		}
	}

}
