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
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockListener.Acquisition.Result;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.engine.EngineStats.HoldObservations;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.OwnerTokens;

/**
 * The engine's one way to acquire: every acquisition, whether a thread waits for it or a
 * future does, runs the same steps ({@link PendingAcquisition}); only the wait for their
 * outcome differs. The thread-bound view parks its thread on the outcome
 * ({@link #acquire}), and an interrupt cancels it; the thread then makes the hold and
 * tells the listeners itself. The asynchronous view hands the caller a future of the hold
 * ({@link #acquireAsync}), completed on a callback thread ({@link AsyncHolds});
 * cancelling it cancels the outcome. Whoever cancels the outcome tells the listeners the
 * acquisition was interrupted.
 *
 * @author setnx-lock authors
 */
final class Acquisitions {

	private final LockEngine.Settings settings;

	final KeyStates states;

	final OwnerTokens ownerTokens;

	final AcquireLoop acquireLoop;

	final LeaseRenewer renewer;

	final HoldObservations observations;

	private final AsyncHolds asyncHolds;

	/** The acquisitions under way, to fail when the engine closes. */
	private final Set<PendingAcquisition> pending = ConcurrentHashMap.newKeySet();

	Acquisitions(LockEngine.Settings settings, KeyStates states, OwnerTokens ownerTokens, AcquireLoop acquireLoop,
			LeaseRenewer renewer, HoldObservations observations, AsyncHolds asyncHolds) {
		this.settings = settings;
		this.states = states;
		this.ownerTokens = ownerTokens;
		this.acquireLoop = acquireLoop;
		this.renewer = renewer;
		this.observations = observations;
		this.asyncHolds = asyncHolds;
	}

	/**
	 * Acquire a lock for an owner, waiting on the calling thread, or take it again if the
	 * owner holds it already.
	 * @param owner who holds it: a thread, for the thread-bound view
	 * @param explicitLease the caller's lease, never renewed; or {@code null} for the
	 * registry's, renewed while held when the registry renews
	 * @param waitNanos a time, 0 for one attempt, or {@link LeaseLimits#NO_LIMIT_NANOS}
	 * @param interruptible whether an interrupt ends the wait; if not, it is kept
	 * @param events the listeners, told on the calling thread
	 * @return the hold, or {@code null} when the wait ended first
	 * @throws LockLostException if the owner's hold was lost and not yet released
	 */
	Hold acquire(LockKey key, String name, Object owner, Duration explicitLease, long waitNanos, boolean interruptible,
			LockEvents events) throws InterruptedException {
		if (interruptible && Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + key.key() + "'");
		}
		long startNanos = System.nanoTime();
		KeyState state = this.states.retain(key.redisKey());
		Hold held = state.holdOf(owner);
		if (held != null) {
			// The existing hold keeps its own reference to the state.
			this.states.unretain(key.redisKey(), state);
			if (held.isLost(System.nanoTime())) {
				throw held.lostException("before this thread took it again; unlock() it to clear the hold");
			}
			held.enter();
			return held;
		}
		PendingAcquisition acquisition = start(key, name, owner, state, explicitLease, startNanos, waitNanos);
		Attempt attempt = null;
		Throwable failure = null;
		try {
			attempt = interruptible ? acquisition.outcome.get() : acquisition.outcome.join();
		}
		catch (InterruptedException ex) {
			if (acquisition.outcome.cancel(false)) {
				acquisition.ended(Result.INTERRUPTED, false, events);
				throw ex;
			}
			// Decided meanwhile: take the outcome, and keep the interrupt for the caller.
			Thread.currentThread().interrupt();
			try {
				attempt = acquisition.outcome.join();
			}
			catch (CompletionException | CancellationException outcome) {
				failure = Waits.unwrapped(outcome);
			}
		}
		catch (ExecutionException | CompletionException ex) {
			failure = Waits.unwrapped(ex);
		}
		return acquisition.take(attempt, failure, events);
	}

	/**
	 * As {@link #acquire}, for a new owner of its own (not reentrant), without a thread
	 * waiting; the listeners are told off the caller's thread.
	 * @return the hold, or {@code null} when the wait ended first, to come on a callback
	 * thread; cancel it to give up
	 */
	CompletableFuture<Hold> acquireAsync(LockKey key, String name, Duration explicitLease, long waitNanos,
			LockEvents events) {
		long startNanos = System.nanoTime();
		Object owner = new AsyncOwner(Thread.currentThread().getName());
		KeyState state = this.states.retain(key.redisKey());
		PendingAcquisition acquisition = start(key, name, owner, state, explicitLease, startNanos, waitNanos);
		CompletableFuture<Hold> result = new CompletableFuture<>();
		// The caller gives up: so does the acquisition, unless it was decided already.
		result.whenComplete((hold, failure) -> {
			if (result.isCancelled() && acquisition.outcome.cancel(false)) {
				acquisition.ended(Result.INTERRUPTED, false, events);
			}
		});
		acquisition.outcome.whenCompleteAsync((attempt, failure) -> {
			if (acquisition.outcome.isCancelled()) {
				return;
			}
			Hold hold;
			try {
				hold = acquisition.take(attempt, Waits.unwrapped(failure), events);
			}
			catch (RuntimeException | Error ex) {
				result.completeExceptionally(ex);
				return;
			}
			if (!result.complete(hold) && hold != null) {
				// Given up while it was being acquired: the caller never sees it.
				this.asyncHolds.release(hold, null);
			}
		}, this.asyncHolds.callbacks);
		return result;
	}

	/** Start an acquisition's steps; the state is given back if they cannot start. */
	private PendingAcquisition start(LockKey key, String name, Object owner, KeyState state, Duration explicitLease,
			long startNanos, long waitNanos) {
		try {
			boolean renewed = explicitLease == null && this.settings.renewal();
			PendingAcquisition acquisition = new PendingAcquisition(this, key, name, owner, state, renewed, startNanos);
			this.pending.add(acquisition);
			acquisition.outcome.whenComplete((attempt, failure) -> this.pending.remove(acquisition));
			acquisition.start((explicitLease != null) ? explicitLease : this.settings.leaseTime(), waitNanos);
			return acquisition;
		}
		catch (RuntimeException | Error ex) {
			this.states.unretain(key.redisKey(), state);
			throw ex;
		}
	}

	/**
	 * Fail the acquisitions still under way: their steps need the timers and release
	 * messages that closing stops.
	 */
	void close() {
		for (PendingAcquisition acquisition : List.copyOf(this.pending)) {
			acquisition.outcome.completeExceptionally(
					new IllegalStateException("Lock registry was closed while this acquisition waited"));
		}
	}

	/**
	 * The callback threads of holds that no thread waits for, and their release and
	 * fencing draw as futures. The futures given to callers complete on these threads,
	 * never on a thread that answers Redis, renews leases or delivers release messages,
	 * so a caller's slow continuation delays no other lock.
	 */
	static final class AsyncHolds implements AutoCloseable {

		private final HoldReleases releases;

		private final FencingDraws fencing;

		private final ThreadPoolExecutor pool;

		/**
		 * Runs callbacks on {@link #pool}; once it is shut down, on the common pool, so
		 * that a late completion still happens off the thread that ran into it.
		 */
		final Executor callbacks;

		AsyncHolds(HoldReleases releases, FencingDraws fencing) {
			this.releases = releases;
			this.fencing = fencing;
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

		/** Completed when the hold has ended; failed as a blocking release throws. */
		CompletableFuture<Void> release(Hold hold, Duration keep) {
			try {
				// Completed on the caller's thread or a callback thread already.
				return this.releases.releaseAsync(hold, keep, this.callbacks);
			}
			catch (RuntimeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		CompletableFuture<Long> fencingToken(Hold hold) {
			return passedOn(this.fencing.tokenOfAsync(hold));
		}

		/**
		 * Return a future that completes as the given one does, on a callback thread
		 * unless it is complete already.
		 */
		<T> CompletableFuture<T> passedOn(CompletableFuture<T> inner) {
			if (inner.isDone()) {
				return inner.handle((value, failure) -> {
					if (failure != null) {
						throw new CompletionException(Waits.unwrapped(failure));
					}
					return value;
				});
			}
			CompletableFuture<T> result = new CompletableFuture<>();
			inner.whenComplete((value, failure) -> this.callbacks.execute(() -> {
				if (failure != null) {
					result.completeExceptionally(Waits.unwrapped(failure));
				}
				else {
					result.complete(value);
				}
			}));
			return result;
		}

		@Override
		public void close() {
			this.pool.shutdown();
		}

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
