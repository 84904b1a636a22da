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
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * Holds that no thread waits for: acquired with a {@link CompletableFuture} and released
 * with one, from any thread. Internal API of the {@link LockEngine}.
 * <p>
 * An asynchronous acquisition has an owner of its own, so it is not reentrant: a second
 * one for the same key waits for the first to be released, wherever it runs. It claims
 * the key's slot as a thread does, but as a future ({@link Slot#claimAsync}), then runs
 * an {@link AsyncAcquisition}, and makes the same {@link Hold}: renewed when taken
 * without a lease of its own, handed over locally, reported lost, observed and counted as
 * any other. The futures given to callers complete on the engine's callback threads,
 * never on a thread that answers Redis, renews leases or delivers release messages, so a
 * caller's slow continuation delays no other lock. Cancelling an acquisition's future
 * gives it up: it leaves the slot's line, and an attempt that takes the key in Redis
 * afterwards, or a hold that comes too late, is released.
 *
 * @author setnx-lock authors
 */
final class AsyncHolds implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(AsyncHolds.class);

	private final EngineSettings settings;

	private final KeyStates states;

	private final OwnerTokens ownerTokens;

	private final AcquireLoop acquireLoop;

	private final LeaseRenewer renewer;

	private final HoldReleases releases;

	private final FencingDraws fencing;

	private final HoldObservations observations;

	/** The listeners, told off the caller's thread. */
	private final LockEvents events;

	/** The callback threads. */
	private final ThreadPoolExecutor pool;

	/**
	 * Runs callbacks on {@link #pool}; once it is shut down, on the common pool, so that
	 * a late completion still happens off the thread that ran into it.
	 */
	private final Executor callbacks;

	/** The acquisitions under way, to fail when the engine closes. */
	private final Set<CompletableFuture<Hold>> pending = ConcurrentHashMap.newKeySet();

	AsyncHolds(EngineSettings settings, KeyStates states, OwnerTokens ownerTokens, AcquireLoop acquireLoop,
			LeaseRenewer renewer, HoldReleases releases, FencingDraws fencing, HoldObservations observations,
			LockEvents events) {
		this.settings = settings;
		this.states = states;
		this.ownerTokens = ownerTokens;
		this.acquireLoop = acquireLoop;
		this.renewer = renewer;
		this.releases = releases;
		this.fencing = fencing;
		this.observations = observations;
		this.events = events;
		AtomicInteger threads = new AtomicInteger();
		this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(task) -> {
					Thread thread = new Thread(task, "setnx-lock-async-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.callbacks = (task) -> {
			try {
				this.pool.execute(task);
			}
			catch (RejectedExecutionException ex) {
				ForkJoinPool.commonPool().execute(task);
			}
		};
	}

	/**
	 * Acquire a lock for a new owner, without a thread waiting.
	 * @param key the lock
	 * @param name its logical name
	 * @param explicitLease the caller's lease, never renewed; or {@code null} for the
	 * registry's, renewed while held when the registry renews
	 * @param waitNanos {@link LockEngine#FOREVER}, {@code 0} for one attempt, or a time
	 * @return the hold, or {@code null} when the wait ended first
	 */
	CompletableFuture<Hold> acquire(LockKey key, String name, Duration explicitLease, long waitNanos) {
		long startNanos = System.nanoTime();
		Object owner = new AsyncOwner(Thread.currentThread().getName());
		boolean renewed = explicitLease == null && this.settings.renewal();
		Duration lease = (explicitLease != null) ? explicitLease : this.settings.leaseTime();
		long deadline = (waitNanos == LockEngine.FOREVER) ? Waits.NO_DEADLINE : startNanos + waitNanos;
		CompletableFuture<Hold> result = new CompletableFuture<>();
		AtomicReference<AsyncAcquisition> inRedis = new AtomicReference<>();
		KeyState state = this.states.retain(key.redisKey());
		CompletableFuture<Boolean> claim;
		Observation wait;
		try {
			wait = this.observations.startWait(key, name);
			claim = state.slot.claimAsync(owner, deadline, renewed, (at) -> recheckAt(state, owner, at));
		}
		catch (RuntimeException | Error ex) {
			this.states.release(key.redisKey(), state);
			throw ex;
		}
		this.pending.add(result);
		// The caller gives up: leave the line, or stop asking Redis.
		result.whenComplete((hold, failure) -> {
			this.pending.remove(result);
			if (result.isCancelled() && !state.slot.withdraw(owner)) {
				AsyncAcquisition acquisition = inRedis.get();
				if (acquisition != null) {
					acquisition.outcome.cancel(false);
				}
			}
		});
		long[] acquiredNanos = new long[1];
		claim.thenCompose((granted) -> {
			if (!granted) {
				return CompletableFuture.<Attempt>completedFuture(null);
			}
			Lease handed = state.takeHandedLease();
			if (handed != null && !handed.isExpired(System.nanoTime())) {
				acquiredNanos[0] = System.nanoTime();
				return CompletableFuture.completedFuture(Attempt.acquired(handed));
			}
			AsyncAcquisition acquisition = new AsyncAcquisition(this.acquireLoop, this.renewer.scheduler, key, state,
					this.ownerTokens.next(), lease, startNanos, waitNanos);
			inRedis.set(acquisition);
			if (result.isDone()) {
				acquisition.outcome.cancel(false);
			}
			return acquisition.start().thenApply((attempt) -> {
				if (attempt != null) {
					acquiredNanos[0] = attempt.lease().sentNanos();
				}
				return attempt;
			});
		}).whenCompleteAsync((attempt, failure) -> {
			Hold hold = null;
			Throwable cause = unwrapped(failure);
			try {
				if (attempt != null) {
					hold = new Hold(owner, key, name, state, attempt.lease(), renewed, acquiredNanos[0]);
				}
				state.acquired(owner, hold);
				if (hold != null) {
					this.renewer.renew(hold);
					hold.observation = this.observations.startHold(key, name);
				}
				else {
					this.states.release(key.redisKey(), state);
				}
				// A cancelled acquisition is the asynchronous kind of an interrupted one.
				Result outcome = (hold != null) ? Result.ACQUIRED
						: (result.isCancelled() || cause instanceof CancellationException) ? Result.INTERRUPTED
								: (cause == null) ? Result.TIMEOUT : Result.ERROR;
				HoldObservations.stop(wait, outcome.name().toLowerCase(Locale.ROOT));
				this.events.acquisitionEnded(new LockListener.Acquisition(key.key(), name, outcome,
						Duration.ofNanos(System.nanoTime() - startNanos), attempt != null && attempt.tookOver()));
			}
			catch (RuntimeException ex) {
				// Not expected (observations and listeners guard themselves); the caller
				// hears of the acquisition all the same, below.
				logger.warn("Recording an acquisition of lock " + LockEvents.quoted(key.key(), name) + " failed", ex);
			}
			finally {
				boolean taken = (cause != null) ? result.completeExceptionally(cause) : result.complete(hold);
				if (!taken && hold != null) {
					// Given up while it was being acquired: the caller never sees it.
					release(hold, null);
				}
			}
		}, this.callbacks);
		return result;
	}

	/**
	 * Schedule a look at a claim in the slot's line; none once the engine is closed,
	 * whose close fails the claim's acquisition.
	 */
	private Future<?> recheckAt(KeyState state, Object owner, long atNanos) {
		try {
			return this.renewer.scheduler.schedule(() -> state.slot.recheck(owner),
					Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
	}

	/**
	 * Give back an asynchronous hold.
	 * @param hold the hold
	 * @param keep how long the key stays after the release, or {@code null} to delete it
	 * @return completed when the hold has ended, failed as
	 * {@link LockEngine#release(Hold, Duration)} throws
	 */
	CompletableFuture<Void> release(Hold hold, Duration keep) {
		CompletableFuture<Void> released;
		try {
			released = this.releases.releaseAsync(hold, keep, this.callbacks);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		// Completed on the caller's thread or a callback thread already.
		return released;
	}

	/**
	 * Return a hold's fencing token without waiting for the draw.
	 * @param hold the hold
	 * @return the token, to come
	 */
	CompletableFuture<Long> fencingToken(Hold hold) {
		return passedOn(this.fencing.tokenOfAsync(hold));
	}

	/**
	 * Return a future that completes as the given one does, on a callback thread unless
	 * it is complete already.
	 */
	<T> CompletableFuture<T> passedOn(CompletableFuture<T> inner) {
		if (inner.isDone()) {
			return inner.handle((value, failure) -> {
				if (failure != null) {
					throw new CompletionException(unwrapped(failure));
				}
				return value;
			});
		}
		CompletableFuture<T> result = new CompletableFuture<>();
		inner.whenComplete((value, failure) -> deliver(() -> {
			if (failure != null) {
				result.completeExceptionally(unwrapped(failure));
			}
			else {
				result.complete(value);
			}
		}));
		return result;
	}

	private void deliver(Runnable completion) {
		this.callbacks.execute(completion);
	}

	private static Throwable unwrapped(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/**
	 * Fail the acquisitions still under way (their steps need the timers and release
	 * messages that close stops), and let the callback threads end.
	 */
	@Override
	public void close() {
		for (CompletableFuture<Hold> acquisition : List.copyOf(this.pending)) {
			acquisition.completeExceptionally(
					new IllegalStateException("Lock registry was closed while this acquisition waited"));
		}
		this.pool.shutdown();
	}

	/**
	 * The owner of an asynchronous hold: nothing but itself, named for the endpoint and
	 * the logs by the thread that asked for it.
	 */
	static final class AsyncOwner {

		private final String startedOn;

		AsyncOwner(String startedOn) {
			this.startedOn = startedOn;
		}

		@Override
		public String toString() {
			return "async (from " + this.startedOn + ")";
		}

	}

}
