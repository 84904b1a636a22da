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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The callback threads of holds that no thread waits for, and their release and fencing
 * draw as futures. Their acquisition is every acquisition's ({@link Acquisitions}); an
 * asynchronous one has an owner of its own ({@link AsyncOwner}), so it is not reentrant.
 * The futures given to callers complete on the engine's callback threads, never on a
 * thread that answers Redis, renews leases or delivers release messages, so a caller's
 * slow continuation delays no other lock.
 *
 * @author setnx-lock authors
 */
final class AsyncHolds implements AutoCloseable {

	private final HoldReleases releases;

	private final FencingDraws fencing;

	/** The callback threads. */
	private final ThreadPoolExecutor pool;

	/**
	 * Runs callbacks on {@link #pool}; once it is shut down, on the common pool, so that
	 * a late completion still happens off the thread that ran into it.
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
					throw new CompletionException(Acquisitions.unwrapped(failure));
				}
				return value;
			});
		}
		CompletableFuture<T> result = new CompletableFuture<>();
		inner.whenComplete((value, failure) -> deliver(() -> {
			if (failure != null) {
				result.completeExceptionally(Acquisitions.unwrapped(failure));
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

	/**
	 * Let the callback threads end.
	 */
	@Override
	public void close() {
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
