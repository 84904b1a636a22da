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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

import io.micrometer.observation.ObservationRegistry;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.engine.Acquisitions.AsyncHolds;
import io.github.setnxlock.redis.engine.EngineStats.HoldObservations;
import io.github.setnxlock.redis.engine.FencingDraws.HoldExtensions;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.engine.PendingAcquisition.AbandonedAcquisitions;
import io.github.setnxlock.redis.engine.Waits.Ticker;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.Reachability;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.ReleaseListener;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.OwnerTokens;

/**
 * The lock engine of one registry; the registry's lock handles and the operator API are
 * its only callers. An acquisition claims its key's slot in this JVM ({@link KeyState}),
 * so that only one owner of this JVM at a time goes to Redis, then asks the protocol as
 * {@link AcquireLoop} rules, the same steps for every acquisition ({@link Acquisitions}).
 * A win becomes a {@link Hold}, which the {@link LeaseRenewer} looks after, and which its
 * owner gives back through {@link #release}: to the next owner in line with the key
 * itself where {@link LocalHandoff} allows, else Redis first, then the slot, so a local
 * waiter never finds the key still there. Listeners hear of a thread's acquisitions and
 * releases on its thread, of the rest on the events thread.
 *
 * @author setnx-lock authors
 */
public final class LockEngine implements AutoCloseable {

	private final LockCommands commands;

	private final KeyStates states;

	private final ReleaseMessages messages;

	private final LockEvents events;

	private final LockEvents renewalEvents;

	private final LeaseRenewer renewer;

	private final HoldObservations observations;

	private final HoldReleases releases;

	private final FencingDraws fencing;

	private final LocalHandoff handoff;

	private final Acquisitions acquisitions;

	private final AsyncHolds asyncHolds;

	private final HoldExtensions extensions;

	private volatile boolean closed;

	/**
	 * Create the engine; nothing is sent to Redis yet.
	 * @param commands the protocol
	 * @param gateway for the release subscription
	 * @param settings the settings
	 * @param listeners called in this order
	 */
	public LockEngine(LockCommands commands, RedisGateway gateway, Settings settings, List<LockListener> listeners) {
		this(commands, (listener) -> gateway.subscribe(settings.releaseChannel(), settings.keyspacePattern(), listener),
				gateway.reachability(), settings, listeners);
	}

	/**
	 * Create the engine on release messages of its own making (one subscription per node
	 * under Redlock); nothing is sent to Redis yet.
	 * @param commands the protocol
	 * @param messages makes the release messages for the listener it is given
	 * @param settings the settings
	 * @param listeners the listeners, called in this order
	 */
	public LockEngine(LockCommands commands, Function<ReleaseListener, ReleaseMessages> messages, Settings settings,
			List<LockListener> listeners) {
		this(commands, messages, Reachability.untracked(), settings, listeners);
	}

	private LockEngine(LockCommands commands, Function<ReleaseListener, ReleaseMessages> messages,
			Reachability reachability, Settings settings, List<LockListener> listeners) {
		this.commands = commands;
		this.states = new KeyStates(reachability::unreachable, Ticker.SYSTEM);
		this.messages = messages.apply(this.states);
		this.events = new LockEvents(listeners, commands::ownerToken);
		// What the renewal finds out reaches the listeners off its thread.
		this.renewalEvents = this.events.queued();
		this.handoff = new LocalHandoff(settings.localHandoff(), settings.maxLocalHandoffs(),
				settings.maxLocalHandoffTime(), commands, Ticker.SYSTEM);
		// The renewer hands back holds whose owner died to the releases, which stop the
		// renewer's work on a hold: the engine, owning both, closes that loop.
		this.renewer = new LeaseRenewer(commands, settings.leaseTime(), settings.maxHold(), this.renewalEvents,
				this::abandoned);
		this.releases = new HoldReleases(commands, this.states, this.events, this.renewalEvents, this.handoff,
				this.renewer);
		AcquireLoop acquireLoop = new AcquireLoop(commands, this.messages,
				new AbandonedAcquisitions(commands, this.renewer.thread.scheduler), this.handoff.enabled(),
				reachability);
		reachability.onUnreachable(this::redisUnreachable);
		this.observations = new HoldObservations(settings.protocol());
		this.fencing = new FencingDraws(commands, this.renewer);
		this.extensions = new HoldExtensions(commands, this.renewer);
		this.asyncHolds = new AsyncHolds(this.releases, this.fencing);
		this.acquisitions = new Acquisitions(settings, this.states, new OwnerTokens(settings.holderPrefix()),
				acquireLoop, this.renewer, this.observations, this.asyncHolds);
	}

	/**
	 * Return the thread-bound view of a lock, the {@link LeasedLock} a registry hands
	 * out.
	 * @param key the lock, checked
	 * @param name its logical name
	 * @return the view
	 */
	public LeasedLock obtain(LockKey key, String name) {
		return new ThreadBoundLock(this, key, name);
	}

	// What the views (ThreadBoundLock, AsyncLockHandle) ask of the engine, as the
	// Acquisitions, HoldReleases and FencingDraws methods they call say. A wait is
	// LeaseLimits.NO_LIMIT_NANOS, 0 for one attempt, or a time; an explicit lease is
	// never renewed, none (null) is the registry's, renewed while held when the
	// registry renews.

	Hold acquire(LockKey key, String name, Object owner, Duration explicitLease, long waitNanos, boolean interruptible)
			throws InterruptedException {
		checkOpen(key.key());
		return this.acquisitions.acquire(key, name, owner, explicitLease, waitNanos, interruptible, this.events);
	}

	/** Not reentrant: the hold is released through {@link #releaseAsync}. */
	CompletableFuture<Hold> acquireAsync(LockKey key, String name, Duration explicitLease, long waitNanos) {
		checkOpen(key.key());
		return this.acquisitions.acquireAsync(key, name, explicitLease, waitNanos, this.renewalEvents);
	}

	CompletableFuture<Void> releaseAsync(Hold hold, Duration keep) {
		return this.asyncHolds.release(hold, keep);
	}

	/** See {@link HoldExtensions}; the answer comes on a callback thread. */
	CompletableFuture<Boolean> extend(Hold hold, Duration lease) {
		return this.asyncHolds.passedOn(this.extensions.extend(hold, lease));
	}

	/**
	 * Return a hold's fencing token without waiting for its draw.
	 * @param hold the hold
	 * @return the token, failed as {@link #fencingToken(Hold)} throws
	 */
	public CompletableFuture<Long> fencingTokenAsync(Hold hold) {
		return this.asyncHolds.fencingToken(hold);
	}

	void release(Hold hold, Duration keep) {
		this.releases.release(hold, keep);
	}

	/**
	 * Return a hold's fencing token, drawn on the first request ({@link FencingDraws}).
	 * @param hold the hold
	 * @return the token
	 * @throws LockLostException if the hold is lost, or the draw found it lost
	 * @throws LockAccessException if Redis could not be reached; the hold stays
	 */
	public long fencingToken(Hold hold) {
		return this.fencing.tokenOf(hold);
	}

	Hold holdOf(LockKey key, Object owner) {
		KeyState state = this.states.find(key.redisKey());
		return (state != null) ? state.holdOf(owner) : null;
	}

	/** Run an action when a hold is found lost; the first request wins. */
	void onLoss(Hold hold, Runnable action) {
		this.renewer.onLoss(hold, action);
	}

	CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.commands.isLocked(key);
	}

	CompletableFuture<String> holder(LockKey key) {
		return this.commands.ownerToken(key).thenApply(OwnerTokens::holderOf);
	}

	/**
	 * Wait for an answer whatever interrupts arrive meanwhile, keeping an interrupt for
	 * the caller to see afterwards.
	 * @param <T> the type of the answer
	 * @param answer the answer to come
	 * @return the answer
	 */
	public static <T> T awaitUninterrupted(CompletableFuture<T> answer) {
		return Waits.awaitUninterrupted(answer);
	}

	/**
	 * Return every hold, lost ones included until their owners release them.
	 * @return the holds
	 */
	public List<Hold> holds() {
		List<Hold> holds = new ArrayList<>();
		this.states.forEach((state) -> holds.addAll(state.holds()));
		return holds;
	}

	/**
	 * End now, as the renewer would at its next tick, a renewed hold of a lock whose
	 * owning thread died without releasing it: for a store that can tell its waiters at
	 * once (the in-memory registry), rather than let the key end with its lease.
	 * @param key the lock
	 * @param ownerToken the owner token the lock's key holds
	 * @return whether the token was a renewed hold of this engine whose thread died; the
	 * hold has ended then, and the key is the caller's to delete
	 */
	public boolean ownerDied(LockKey key, String ownerToken) {
		KeyState state = this.states.find(key.redisKey());
		if (state != null) {
			for (Hold hold : state.holds()) {
				if (hold.renewedByWatchdog && !hold.ownerAlive() && !hold.isReleasing()
						&& hold.lease().value().equals(ownerToken)) {
					this.renewer.ownerDied(hold, true);
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Tell the listeners, on the events thread, that a Redlock node failed its part of a
	 * call: called from a Redis client's thread, which must not wait for a listener.
	 * @param failure the node and how it failed
	 */
	public void nodeFailed(LockListener.NodeFailure failure) {
		this.renewalEvents.nodeFailed(failure);
	}

	/**
	 * Mark the holds of a lock lost to an operator's force release; tell the listeners.
	 * @param key the lock
	 */
	public void forceReleased(LockKey key) {
		KeyState state = this.states.find(key.redisKey());
		if (state != null) {
			for (Hold hold : state.holds()) {
				if (hold.markLost(Reason.FORCE_RELEASED)) {
					this.events.lost(hold, Reason.FORCE_RELEASED);
				}
			}
			state.holdChanged();
		}
	}

	/**
	 * Observe waits for locks and holds of them.
	 * @param registry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry registry) {
		this.observations.setRegistry(registry);
	}

	/**
	 * Name and tag observations with the application's conventions.
	 * @param wait the convention of waits, or {@code null} for the default
	 * @param hold the convention of holds, or {@code null} for the default
	 */
	public void setObservationConventions(LockWaitObservationConvention wait, LockHoldObservationConvention hold) {
		this.observations.setConventions(wait, hold);
	}

	/**
	 * Return the engine's counters and probes.
	 * @return the stats
	 */
	public EngineStats stats() {
		return new EngineStats(this.states, this.renewer, this.messages, this.handoff);
	}

	/**
	 * Let the owners in every key's line know that Redis is unreachable, off the thread
	 * that found out (an event loop, a command thread); nothing to do once closed.
	 */
	private void redisUnreachable() {
		try {
			this.renewer.thread.scheduler.execute(this.states::redisUnreachable);
		}
		catch (RejectedExecutionException ex) {
			// Closed: no line waits any more.
		}
	}

	private void abandoned(Hold hold) {
		this.releases.abandoned(hold);
	}

	private void checkOpen(String key) {
		if (this.closed) {
			throw closedFor(key, null);
		}
	}

	static IllegalStateException closedFor(String key, Throwable cause) {
		return new IllegalStateException(
				"Lock registry is closed: lock '" + key + "' cannot be acquired through it any more", cause);
	}

	/**
	 * Refuse acquisitions from now on, before they reach Redis, and stop the engine's
	 * threads. Held locks are not released: they end with their leases.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.messages.close();
		this.renewer.close();
		this.renewalEvents.close();
		this.acquisitions.close();
		this.asyncHolds.close();
	}

	/**
	 * What the {@link LockEngine} is told once, when it is made. Internal API.
	 *
	 * @param leaseTime the lease of a hold taken without one of its own, resolved once
	 * @param renewal whether such holds are renewed while held
	 * @param maxHold how long renewals go on at most, or {@code null} for no limit
	 * @param releaseChannel the channel releases are announced on
	 * @param keyspacePattern the lock keys' keyspace notification pattern, or
	 * {@code null} not to listen to them
	 * @param protocol the protocol's name, for observations
	 * @param localHandoff whether a release may pass the key to a waiter of this engine
	 * ({@link LocalHandoff})
	 * @param maxLocalHandoffs how many local hand-offs at most once another registry's
	 * waiter is known
	 * @param maxLocalHandoffTime how long they go on at most once such a waiter is known
	 * @param holderPrefix the process's part of the holder in owner tokens
	 * ({@link OwnerTokens}), or {@code null} for none
	 */
	public record Settings(Duration leaseTime, boolean renewal, Duration maxHold, String releaseChannel,
			String keyspacePattern, String protocol, boolean localHandoff, int maxLocalHandoffs,
			Duration maxLocalHandoffTime, String holderPrefix) {

	}

}
