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
import java.util.function.Supplier;

import io.github.setnxlock.LockAccessException;

/**
 * Starts a gateway's calls and notes each outcome in its {@link Reachability}; a call
 * that cannot start is a failed answer, not an exception thrown at its caller.
 *
 * @author setnx-lock authors
 */
final class WatchedCalls {

	private final CommandRunner runner;

	private final Reachability reachability;

	WatchedCalls(CommandRunner runner, Reachability reachability) {
		this.runner = runner;
		this.reachability = reachability;
	}

	/**
	 * Start a call for a lock, turning a refusal to start it (the gateway's threads all
	 * wait for a stalled Redis) into a failed answer that names the lock.
	 */
	<T> CompletableFuture<T> sent(LockKey key, String action, Supplier<CompletableFuture<T>> call) {
		// Not through sent(call): no lambda more on the way of every lock command.
		try {
			return this.reachability.watch(System.nanoTime(), call.get());
		}
		catch (CommandRunner.RedisStalledException ex) {
			return CompletableFuture
				.failedFuture(new LockAccessException(key.key(), "Could not " + action + " lock '" + key.key()
						+ "' (Redis key '" + key.redisKey() + "'): Redis is not answering; " + ex.getMessage(), ex));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** Run a template command for a lock on a command thread. */
	<T> CompletableFuture<T> onThread(LockKey key, String action, Supplier<T> command) {
		return sent(key, action, () -> this.runner.submit(() -> RedisCall.run(key, action, command)));
	}

	/** Start a call that is for no one lock. */
	<T> CompletableFuture<T> sent(Supplier<CompletableFuture<T>> call) {
		try {
			return this.reachability.watch(System.nanoTime(), call.get());
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
