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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.setnxlock.LeaseLimits;

/**
 * How a caller's thread waits for Redis's answer: until its own deadline, and honouring
 * an interrupt only where the {@link java.util.concurrent.locks.Lock} method allows. The
 * command itself runs elsewhere (see
 * {@link io.github.setnxlock.redis.gateway.RedisGateway}), so giving up the wait never
 * cuts it short.
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

	private static RuntimeException rethrown(Throwable cause) {
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new IllegalStateException(cause);
	}

}
