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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * acquisition releases it when it lands (see {@link AcquireLoop}). The pool grows with
 * the number of callers waiting for an answer at once, up to {@link #MAX_THREADS}, and
 * shrinks when idle.
 *
 * @author setnx-lock authors
 */
final class CommandRunner implements AutoCloseable {

	/** A wait without a time limit. */
	static final long NO_DEADLINE = Long.MIN_VALUE;

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
				throw new IllegalStateException("The lock registry is closed", ex);
			}
			throw new RedisStalledException(MAX_THREADS, ex);
		}
	}

	/**
	 * Run a command and wait for its answer whatever interrupts arrive meanwhile; an
	 * interrupt is kept for the caller to see afterwards.
	 * @param <T> the type of its answer
	 * @param command the command
	 * @return the answer
	 * @throws RuntimeException what the command threw
	 */
	<T> T runUninterrupted(Supplier<T> command) {
		return awaitUninterrupted(submit(command));
	}

	/**
	 * Wait for an answer whatever interrupts arrive meanwhile; an interrupt is kept for
	 * the caller to see afterwards.
	 * @param <T> the type of the answer
	 * @param answer the answer to come
	 * @return the answer
	 * @throws RuntimeException what the command threw
	 */
	<T> T awaitUninterrupted(CompletableFuture<T> answer) {
		try {
			return awaitUninterrupted(answer, NO_DEADLINE);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Not reachable without a deadline", ex);
		}
	}

	/**
	 * Wait for an answer until a deadline, whatever interrupts arrive meanwhile; an
	 * interrupt is kept for the caller to see afterwards.
	 * @param <T> the type of the answer
	 * @param answer the answer to come
	 * @param deadlineNanos the {@link System#nanoTime()} to wait until, or
	 * {@link #NO_DEADLINE}
	 * @return the answer
	 * @throws TimeoutException if the deadline passes first
	 * @throws RuntimeException what the command threw
	 */
	static <T> T awaitUninterrupted(CompletableFuture<T> answer, long deadlineNanos) throws TimeoutException {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return await(answer, deadlineNanos);
				}
				catch (InterruptedException ex) {
					interrupted = true;
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
	 * Wait for an answer.
	 * @param <T> the type of the answer
	 * @param answer the answer to come
	 * @param deadlineNanos the {@link System#nanoTime()} to wait until, or
	 * {@link #NO_DEADLINE}
	 * @return the answer
	 * @throws InterruptedException if the caller is interrupted while waiting
	 * @throws TimeoutException if the deadline passes first
	 * @throws RuntimeException what the command threw
	 */
	static <T> T await(CompletableFuture<T> answer, long deadlineNanos) throws InterruptedException, TimeoutException {
		try {
			if (deadlineNanos == NO_DEADLINE) {
				return answer.get();
			}
			return answer.get(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			throw rethrown(ex.getCause());
		}
	}

	/**
	 * Return an answer that is already there, such as one a call on the calling thread
	 * gave, or throw what failed it.
	 * @param <T> the type of the answer
	 * @param answer the answer
	 * @return the answer
	 * @throws RuntimeException what the command threw
	 */
	static <T> T answered(CompletableFuture<T> answer) {
		try {
			return answer.join();
		}
		catch (CompletionException ex) {
			throw rethrown(ex.getCause());
		}
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
	 * Stop the threads once their commands are done.
	 */
	@Override
	public void close() {
		this.executor.shutdown();
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
