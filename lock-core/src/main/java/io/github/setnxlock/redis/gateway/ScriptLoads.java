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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Makes sure Redis holds every lock script ({@code SCRIPT EXISTS}, then
 * {@code SCRIPT LOAD} of those it has forgotten), on a command thread: in the background
 * when a registry is made, connecting first, so that its first lock call finds the
 * connection open and the scripts there; and for health checks, which wait for it
 * {@link #HEALTH_WAIT} at most, whatever the client's command timeout (a minute by
 * default, and a check sends several commands). While the first connection is still on
 * its way a health check waits on as a lock call does
 * ({@link Reachability#openingDeadline}), so that an application that has just started is
 * not reported down for its client's slow start. A check's commands go on after it gave
 * up and, if Redis answers them late, still end an unreachable state.
 *
 * @author setnx-lock authors
 */
final class ScriptLoads {

	/** The longest a health check waits for Redis. */
	static final Duration HEALTH_WAIT = Duration.ofSeconds(1);

	private final StringRedisTemplate redis;

	private final CommandRunner runner;

	private final Reachability reachability;

	private final List<LockScript> scripts;

	ScriptLoads(StringRedisTemplate redis, CommandRunner runner, Reachability reachability, List<LockScript> scripts) {
		this.redis = redis;
		this.runner = runner;
		this.reachability = reachability;
		this.scripts = scripts;
	}

	/**
	 * Connect and load the scripts in the background.
	 * @param connections what the gateway hears of the client's connections, which tells
	 * the reachability the steps of the first one where the client does
	 * @param connect opens the connection the scripts go out on, and says whether it is
	 * open (see {@link ScriptCalls#connect()})
	 * @return the number of scripts, to come; never thrown for Redis's sake
	 */
	CompletableFuture<Integer> warmUp(Reconnections connections, BooleanSupplier connect) {
		try {
			boolean tells = connections.tell(this.reachability);
			return this.reachability.watch(System.nanoTime(), this.runner.submit(() -> {
				if (connect.getAsBoolean() && tells) {
					// Open already, perhaps, so that no connection event came.
					this.reachability.progressed();
				}
				return loaded();
			}));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Load the scripts for a health check, waiting {@link #HEALTH_WAIT} at most (longer
	 * only for a first connection still on its way).
	 * @return the number of scripts
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be used, or did
	 * not answer in time (saying why Redis counts as unreachable, where a call found out)
	 */
	int check() {
		CompletableFuture<Integer> loaded;
		try {
			loaded = this.reachability.watch(System.nanoTime(), this.runner.submit(this::loaded));
		}
		catch (CommandRunner.RedisStalledException ex) {
			throw new QueryTimeoutException("Redis is not answering: " + ex.getMessage(), ex);
		}
		long start = System.nanoTime();
		long deadline = start + HEALTH_WAIT.toNanos();
		try {
			while (true) {
				try {
					return loaded.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (TimeoutException ex) {
					long later = this.reachability.isOpening() ? this.reachability.openingDeadline(start) : deadline;
					if (later - deadline <= 0) {
						throw ex;
					}
					deadline = later;
				}
			}
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException("Redis did not answer within " + HEALTH_WAIT.toMillis() + " ms" + known(),
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new QueryTimeoutException("Interrupted while waiting for Redis" + known(), ex);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(ex.getCause());
		}
	}

	private int loaded() {
		String[] shas = this.scripts.stream().map(LockScript::sha1).toArray(String[]::new);
		if (shas.length == 0) {
			this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
			return 0;
		}
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			List<Boolean> loaded = connection.scriptingCommands().scriptExists(shas);
			for (int i = 0; i < shas.length; i++) {
				if (loaded == null || !Boolean.TRUE.equals(loaded.get(i))) {
					connection.scriptingCommands()
						.scriptLoad(
								this.scripts.get(i).redisScript().getScriptAsString().getBytes(StandardCharsets.UTF_8));
				}
			}
			return null;
		});
		return shas.length;
	}

	/**
	 * Say what is known of why Redis did not answer.
	 */
	private String known() {
		Throwable unreachable = this.reachability.unreachable();
		if (unreachable != null) {
			return "; Redis counts as unreachable since a call failed: " + RedisCall.describe(unreachable);
		}
		return this.reachability.isOpening() ? "; the first connection to Redis is still being opened" : "";
	}

}
