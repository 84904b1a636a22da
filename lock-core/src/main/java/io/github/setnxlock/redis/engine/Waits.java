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

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Lease;

/**
 * How the engine waits. A caller's thread waits for Redis's answer until its own
 * deadline, honouring an interrupt only where the {@link java.util.concurrent.locks.Lock}
 * method allows; the command itself runs elsewhere (see
 * {@link io.github.setnxlock.redis.gateway.RedisGateway}), so giving up the wait never
 * cuts it short; an asynchronous step waits holding no thread ({@link #whenAnswered}). An
 * owner waits in a key's line holding no thread ({@link SlotWaiter}) until the slot is
 * granted with a {@link SlotTurn}, or Redis is known to be unreachable
 * ({@link UnreachableRedis}); the line reads its deadlines on a {@link Ticker} and is
 * looked at again by a {@link Timer}.
 *
 * @author setnx-lock authors
 */
final class Waits {

	/** A wait without a time limit. */
	static final long NO_DEADLINE = Long.MIN_VALUE;

	/**
	 * Return the deadline of a wait in line for Redis's answers: none for a single
	 * attempt ({@code 0}, which never waits) or a wait without a limit.
	 * @param startNanos when the wait began
	 * @param waitNanos how long it is, or {@link LeaseLimits#NO_LIMIT_NANOS}
	 * @return the deadline, or {@link #NO_DEADLINE}
	 */
	static long deadline(long startNanos, long waitNanos) {
		return (waitNanos > 0 && waitNanos != LeaseLimits.NO_LIMIT_NANOS) ? startNanos + waitNanos : NO_DEADLINE;
	}

	private Waits() {
	}

	/**
	 * Wait for an answer, whatever interrupts arrive meanwhile; an interrupt is kept for
	 * the caller to see afterwards. Its callers' answers end by deadlines of their own.
	 * @param <T> the type of the answer
	 * @param answer the answer to come
	 * @return the answer
	 * @throws RuntimeException what the command threw
	 */
	static <T> T awaitUninterrupted(CompletableFuture<T> answer) {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return answer.get();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					throw rethrown(ex.getCause());
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Wait for an answer holding no thread: run what to do with it, or what to do when
	 * the deadline ({@link #NO_DEADLINE} for none) passes first on the timer, never both.
	 */
	static <T> void whenAnswered(CompletableFuture<T> answer, long deadlineNanos, Timer timer,
			BiConsumer<T, Throwable> then, Runnable timedOut) {
		AtomicBoolean settled = new AtomicBoolean();
		Future<?> timeout = (deadlineNanos != NO_DEADLINE) ? timer.schedule(() -> {
			if (settled.compareAndSet(false, true)) {
				timedOut.run();
			}
		}, deadlineNanos) : null;
		answer.whenComplete((value, failure) -> {
			if (settled.compareAndSet(false, true)) {
				if (timeout != null) {
					timeout.cancel(false);
				}
				then.accept(value, failure);
			}
		});
	}

	/** Return what a future failed with, without the wrapper that waiting for it adds. */
	static Throwable unwrapped(Throwable failure) {
		return ((failure instanceof CompletionException || failure instanceof ExecutionException)
				&& failure.getCause() != null) ? failure.getCause() : failure;
	}

	private static RuntimeException rethrown(Throwable cause) {
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new IllegalStateException(cause);
	}

	/**
	 * How the waits of a chain of steps end at their deadlines: completed then, unless
	 * done before.
	 */
	@FunctionalInterface
	interface Deadlines {

		void completeAt(CompletableFuture<?> future, long deadlineNanos);

	}

	/**
	 * A thread's wait for the steps of its release: it runs them itself while it waits,
	 * so that what follows Redis's answer (the key's slot freed, the listeners told) runs
	 * on it, as the caller of {@code unlock()} expects, and no other thread stands
	 * between the answer and the caller. It ends its own waits at their deadlines, so it
	 * needs no timer, and waits uninterrupted: an interrupt is kept for the caller. A
	 * release has one wait at a time (for a renewal out, then for the answer), each
	 * started by a step this thread runs.
	 */
	static final class CallerSteps implements Executor, Deadlines {

		private final Thread caller = Thread.currentThread();

		private final Queue<Runnable> steps = new ConcurrentLinkedQueue<>();

		private CompletableFuture<?> waitingFor;

		private long deadlineNanos;

		@Override
		public void execute(Runnable step) {
			this.steps.add(step);
			LockSupport.unpark(this.caller);
		}

		@Override
		public void completeAt(CompletableFuture<?> future, long deadlineNanos) {
			this.waitingFor = future;
			this.deadlineNanos = deadlineNanos;
		}

		void runUntil(CompletableFuture<?> done) {
			boolean interrupted = false;
			boolean woken = false;
			while (!done.isDone()) {
				Runnable step = this.steps.poll();
				if (step != null) {
					if (interrupted) {
						// Steps (listeners among them) see the interrupt, as they did
						// when
						// the thread waited for the answer alone; it is cleared to park.
						Thread.currentThread().interrupt();
					}
					step.run();
				}
				else if (!woken) {
					// Whichever thread ends the release, this one hears of it.
					done.whenComplete((ignored, failure) -> LockSupport.unpark(this.caller));
					woken = true;
				}
				else if (this.waitingFor == null || this.waitingFor.isDone()) {
					LockSupport.park(this);
				}
				else if (this.deadlineNanos - System.nanoTime() > 0) {
					LockSupport.parkNanos(this, this.deadlineNanos - System.nanoTime());
				}
				else {
					this.waitingFor.complete(null);
				}
				interrupted |= Thread.interrupted();
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * One in a slot's line: a claim, what it needs to wait without a thread, and whether
	 * it takes a local hand-off. Its fields are guarded by {@link Slot}'s mutex.
	 */
	static final class SlotWaiter {

		final boolean takesHandoff;

		/**
		 * The claim's outcome: what the slot was granted with, or {@code null} if not.
		 */
		final CompletableFuture<SlotTurn> granted;

		final long deadlineNanos;

		final Timer timer;

		/** The look at the claim's deadline, once scheduled. */
		Future<?> recheck;

		SlotWaiter(boolean takesHandoff, CompletableFuture<SlotTurn> granted, long deadlineNanos, Timer timer) {
			this.takesHandoff = takesHandoff;
			this.granted = granted;
			this.deadlineNanos = deadlineNanos;
			this.timer = timer;
		}

	}

	/**
	 * What an owner is granted with a key's slot: after a release in Redis, the release
	 * to wait for; after a local hand-off, the key itself (see {@link LocalHandoff}).
	 *
	 * @param generation the release generation noted before that release, whose message
	 * the new owner waits for; {@link KeyState#NOT_ANNOUNCED} when the release was not
	 * announced
	 * @param yieldTurn whether the new owner lets a waiter of another registry go first
	 * (see {@link AcquireLoop#YIELD_NANOS})
	 * @param handedLease the lease of the key handed over locally, or {@code null} when
	 * the owner must ask Redis
	 */
	record SlotTurn(long generation, boolean yieldTurn, Lease handedLease) {

		/** A slot granted with nothing to wait for and nothing handed over. */
		static final SlotTurn NONE = new SlotTurn(KeyState.NOT_ANNOUNCED, false, null);

		boolean announced() {
			return this.generation != KeyState.NOT_ANNOUNCED;
		}

	}

	/**
	 * Ends a wait in a key's line once Redis is known to be unreachable (see
	 * {@link io.github.setnxlock.redis.gateway.Reachability}): the slot knows no key
	 * name, so the acquisition turns it into the {@link LockAccessException} that names
	 * the lock.
	 */
	static final class UnreachableRedis extends RuntimeException {

		private static final long serialVersionUID = 1L;

		UnreachableRedis(Throwable evidence) {
			super("Redis is unreachable", evidence, false, false);
		}

		/** Return the exception that tells the caller. */
		LockAccessException forKey(LockKey key) {
			return new LockAccessException(key.key(),
					"Could not acquire lock '" + key.key() + "' (Redis key '" + key.redisKey() + "'): "
							+ because(getCause())
							+ "; the call did not wait for its turn behind another call of this application",
					getCause());
		}

		/** Say why Redis counts as unreachable, for a message. */
		static String because(Throwable evidence) {
			return "Redis counts as unreachable since a call failed (" + RedisCall.describe(evidence)
					+ ") and nothing has answered since";
		}

	}

	/**
	 * Where a key's slot and its local hand-offs read the time: nanoseconds as
	 * {@link System#nanoTime()} counts them. A test gives a clock it moves itself, with a
	 * {@link Timer} that runs what comes due as it moves, so that claim deadlines, the
	 * watch on a holder's lease and the time bound of local hand-offs are checked without
	 * waiting for real time to pass. (The renewer and the acquisition's waits still read
	 * {@link System#nanoTime()} themselves.)
	 */
	@FunctionalInterface
	interface Ticker {

		/** The machine's monotonic clock. */
		Ticker SYSTEM = System::nanoTime;

		/**
		 * Read the clock.
		 * @return nanoseconds from an arbitrary origin, as {@link System#nanoTime()}
		 */
		long read();

	}

	/** Runs a task at a given {@link System#nanoTime()}. */
	@FunctionalInterface
	interface Timer {

		/** Return what cancels the task, or {@code null} if nothing runs it (closed). */
		Future<?> schedule(Runnable task, long atNanos);

	}

}
