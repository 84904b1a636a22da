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

package io.github.setnxlock.redis.gateway;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs the Redis commands of lock calls on threads of its own, which nobody interrupts.
 * <p>
 * A Redis client gives up a blocking command when its thread is interrupted, but the
 * command may already have run: an acquisition that succeeded in Redis would then be
 * unknown to its holder and block everyone for a whole lease, and a release would be
 * skipped. So a command never runs on the caller's thread; the caller waits for its
 * answer, as long as its wait allows and honouring interrupts only where the
 * {@link java.util.concurrent.locks.Lock} method allows, and whoever stops waiting for an
 * acquisition releases it when it lands (see the engine's acquire loop). The pool grows
 * with the number of callers waiting for an answer at once, up to {@link #MAX_THREADS},
 * and shrinks when idle.
 *
 * @author setnx-lock authors
 */
final class CommandRunner implements AutoCloseable {

	/**
	 * The most commands waiting for an answer at once. When Redis stalls, every attempt a
	 * caller gave up on still waits for its command timeout on a thread of this pool;
	 * past this many, calls fail at once instead of adding threads.
	 */
	static final int MAX_THREADS = 256;

	private final ExecutorService executor = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
			new SynchronousQueue<>(), new CommandThreadFactory());

	/**
	 * Start a command.
	 * @param <T> the type of its answer
	 * @param command the command
	 * @return the answer to come
	 */
	<T> CompletableFuture<T> submit(Supplier<T> command) {
		try {
			return CompletableFuture.supplyAsync(command, this.executor);
		}
		catch (RejectedExecutionException ex) {
			if (this.executor.isShutdown()) {
				throw new ClosedException(ex);
			}
			throw new RedisStalledException(MAX_THREADS, ex);
		}
	}

	@Override
	public void close() {
		this.executor.shutdown();
	}

	/**
	 * Thrown when a command is started after the registry closed (see
	 * {@link RedisCall#isClosed}).
	 */
	static final class ClosedException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		ClosedException(Throwable cause) {
			super("The lock registry is closed", cause);
		}

	}

	/**
	 * Thrown when too many commands already wait for Redis to answer.
	 */
	static final class RedisStalledException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		RedisStalledException(int waiting, Throwable cause) {
			super(waiting + " Redis commands of this registry are already waiting for an answer", cause);
		}

	}

	private static final class CommandThreadFactory implements ThreadFactory {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public Thread newThread(Runnable task) {
			Thread thread = new Thread(task, "setnx-lock-command-" + this.count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}

	}

}
