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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockAccessException;

/**
 * Repeats acquisition attempts against Redis until one succeeds or the wait ends.
 * <p>
 * Each attempt runs on the {@link CommandRunner}, and the caller waits for its answer
 * only as long as its wait has left, so a wait with a time limit ends on time even when
 * Redis stalls for longer than the client's command timeout, and an interrupt never cuts
 * a command short. An attempt the caller stopped waiting for may still acquire the lock
 * in Redis; it is then released at once, so no key is left behind. A wait that ends
 * without any answer from Redis is a {@link LockAccessException} (Redis did not answer),
 * not {@code false} (somebody holds the lock). Waits without a time limit, and single
 * attempts, are bounded by the client's command timeout instead.
 *
 * @author setnx-lock authors
 */
final class AcquireLoop {

	/** A wait without a time limit. */
	static final long FOREVER = -1;

	private static final Log logger = LogFactory.getLog(AcquireLoop.class);

	private final LockCommands commands;

	private final CommandRunner runner;

	AcquireLoop(LockCommands commands, CommandRunner runner) {
		this.commands = commands;
		this.runner = runner;
	}

	/**
	 * Acquire the lock in Redis.
	 * @param key the lock's keys
	 * @param ownerToken the token of this acquisition
	 * @param lease the lease to ask for
	 * @param startNanos when the caller's wait began
	 * @param waitNanos how long the caller waits: {@link #FOREVER}, {@code 0} for one
	 * attempt, or a positive time
	 * @param interruptible whether an interrupt ends the wait; if not, the interrupt is
	 * kept for the caller to see afterwards
	 * @return the acquired attempt, or {@code null} when the wait ended first
	 * @throws InterruptedException if interruptible and interrupted
	 */
	Attempt acquire(LockKey key, String ownerToken, Duration lease, long startNanos, long waitNanos,
			boolean interruptible) throws InterruptedException {
		long deadline = (waitNanos > 0) ? startNanos + waitNanos : CommandRunner.NO_DEADLINE;
		RetryBackoff backoff = new RetryBackoff();
		boolean answered = false;
		boolean interrupted = false;
		try {
			while (true) {
				if (deadline != CommandRunner.NO_DEADLINE && deadline - System.nanoTime() <= 0) {
					return null;
				}
				CompletableFuture<Attempt> future = this.runner
					.submit(() -> this.commands.acquire(key, ownerToken, lease));
				Attempt attempt = null;
				while (attempt == null) {
					try {
						attempt = CommandRunner.await(future, deadline);
					}
					catch (InterruptedException ex) {
						if (interruptible) {
							releaseWhenAcquired(key, future);
							throw ex;
						}
						interrupted = true;
					}
					catch (TimeoutException ex) {
						releaseWhenAcquired(key, future);
						if (answered) {
							// The lock was held when last asked: the wait ends as
							// contention.
							return null;
						}
						throw new LockAccessException(key.key(), "Redis did not answer within the wait for lock '"
								+ key.key() + "' (Redis key '" + key.redisKey() + "')", ex);
					}
				}
				if (attempt.acquired()) {
					return attempt;
				}
				if (waitNanos == 0) {
					return null;
				}
				answered = true;
				long pause = backoff.nextPauseNanos(attempt.holderTtlMillis());
				if (deadline != CommandRunner.NO_DEADLINE) {
					pause = Math.min(pause, deadline - System.nanoTime());
				}
				if (pause > 0) {
					interrupted |= pause(pause, interruptible);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void releaseWhenAcquired(LockKey key, CompletableFuture<Attempt> future) {
		future.whenComplete((attempt, failure) -> {
			if (attempt != null && attempt.acquired()) {
				try {
					this.commands.release(key, attempt.lease());
				}
				catch (RuntimeException ex) {
					// The key ends with its lease; nobody is waiting for this answer.
					logger.debug("Could not release abandoned acquisition of lock '" + key.key() + "'", ex);
				}
			}
		});
	}

	/**
	 * Sleep for the given time.
	 * @return whether an interrupt arrived and was swallowed (not interruptible)
	 */
	private static boolean pause(long nanos, boolean interruptible) throws InterruptedException {
		if (interruptible) {
			TimeUnit.NANOSECONDS.sleep(nanos);
			return false;
		}
		long end = System.nanoTime() + nanos;
		boolean interrupted = false;
		for (long left = nanos; left > 0; left = end - System.nanoTime()) {
			LockSupport.parkNanos(left);
			if (Thread.interrupted()) {
				interrupted = true;
			}
		}
		return interrupted;
	}

}
