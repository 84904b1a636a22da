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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.LockCommands;

/**
 * Undoes acquisitions whose answer never came: a command timeout, a reset connection, or
 * a caller that stopped waiting and whose attempt then failed. Such an attempt may still
 * run in Redis, later, and would leave the key locked for its whole lease with an owner
 * token nobody remembers; so a compare-and-delete with that token follows it
 * ({@link LockCommands#abandon}).
 * <p>
 * On Lettuce's shared connection (Spring Boot's default) the compare-and-delete goes out
 * on the connection the attempt went out on, so Redis runs it after the attempt, if the
 * attempt runs at all: one answer settles it. Clients that spread commands over pooled
 * connections (Jedis) cannot promise that order, so the compare-and-delete is repeated
 * while it finds nothing to delete, backing off from {@value #FIRST_PAUSE_MILLIS} ms to
 * {@value #MAX_PAUSE_MILLIS} ms, for up to {@value #REPEAT_FOR_MILLIS} ms; one that fails
 * is tried again on the same back-off until the attempt's lease would have ended. An
 * attempt that reaches Redis later than that is left to its lease.
 *
 * @author setnx-lock authors
 */
final class AbandonedAcquisitions {

	private static final Log logger = LogFactory.getLog(AbandonedAcquisitions.class);

	static final long FIRST_PAUSE_MILLIS = 50;

	static final long MAX_PAUSE_MILLIS = 2000;

	static final long REPEAT_FOR_MILLIS = 5000;

	private final LockCommands commands;

	private final ScheduledExecutorService timer;

	AbandonedAcquisitions(LockCommands commands, ScheduledExecutorService timer) {
		this.commands = commands;
		this.timer = timer;
	}

	/**
	 * Undo an acquisition attempt that may have run, or may still run, in Redis.
	 * @param key the lock
	 * @param ownerToken the attempt's owner token, used by no other attempt
	 * @param lease the lease it asked for
	 */
	void undo(LockKey key, String ownerToken, Duration lease) {
		long now = System.nanoTime();
		send(key, ownerToken, now + TimeUnit.MILLISECONDS.toNanos(REPEAT_FOR_MILLIS), now + lease.toNanos(),
				FIRST_PAUSE_MILLIS);
	}

	private void send(LockKey key, String ownerToken, long repeatUntil, long leaseEnd, long pauseMillis) {
		this.commands.abandon(key, ownerToken).whenComplete((deleted, failure) -> {
			if (Boolean.TRUE.equals(deleted)) {
				logger.info("An acquisition of lock '" + key.key() + "' whose answer never came had taken the lock"
						+ " in Redis; it was released");
				return;
			}
			long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis);
			if (next - ((failure != null) ? leaseEnd : repeatUntil) > 0) {
				if (failure != null) {
					logger.warn("Could not undo an acquisition of lock '" + key.key() + "' whose answer never came;"
							+ " if it took the lock, the lock ends with its lease", failure);
				}
				return;
			}
			try {
				this.timer.schedule(
						() -> send(key, ownerToken, repeatUntil, leaseEnd, Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS)),
						pauseMillis, TimeUnit.MILLISECONDS);
			}
			catch (RejectedExecutionException ex) {
				// The registry is closed: the lock, if taken, ends with its lease.
			}
		});
	}

}
