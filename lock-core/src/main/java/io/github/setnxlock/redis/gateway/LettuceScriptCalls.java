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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * {@link ScriptCalls} on Lettuce's asynchronous API, over the factory's shared native
 * connection: {@code EVALSHA} goes out from the calling thread, and {@code EVAL} follows
 * on the same connection only when Redis has forgotten the script.
 * <p>
 * Used only where that loses nothing the template gives: the factory shares its native
 * connection (with a dedicated one per call, the connection would have to go back to its
 * pool after the answer, from Lettuce's event loop), and Lettuce times commands out (its
 * default), so an answer that never comes still ends in an error rather than a wait for
 * ever. Failures are translated by the factory, as the template translates them.
 * <p>
 * On a server with a compare-and-delete of its own, Valkey's {@code DELIFEQ} or Redis's
 * {@code DELEX ... IFEQ}, the token protocol's release uses it instead of its script (see
 * {@link NativeRelease}).
 *
 * @author setnx-lock authors
 */
final class LettuceScriptCalls implements ScriptCalls {

	private final LettuceConnectionFactory factory;

	private final CommandRunner runner;

	/**
	 * The factory's shared connection, kept while it stays open: asking the factory for
	 * it on every call makes a Spring Data Redis connection object each time. A factory
	 * that resets or stops closes it, and the next call asks again; Lettuce reconnects an
	 * open one by itself.
	 */
	private volatile SharedCommands shared;

	private final NativeRelease nativeRelease = new NativeRelease(this);

	private LettuceScriptCalls(LettuceConnectionFactory factory, CommandRunner runner) {
		this.factory = factory;
		this.runner = runner;
	}

	/**
	 * Return the calls for a factory, or {@code null} when it is not a Lettuce factory
	 * that shares its connection and times commands out.
	 * @param factory the template's factory
	 * @param runner the threads for connecting when the caller was interrupted
	 * @return the calls, or {@code null}
	 */
	static ScriptCalls forFactory(RedisConnectionFactory factory, CommandRunner runner) {
		if (!(factory instanceof LettuceConnectionFactory lettuce) || !lettuce.getShareNativeConnection()) {
			return null;
		}
		boolean timesOut = lettuce.getClientConfiguration()
			.getClientOptions()
			.map(ClientOptions::getTimeoutOptions)
			.map((options) -> options.isTimeoutCommands())
			.orElse(true);
		return timesOut ? new LettuceScriptCalls(lettuce, runner) : null;
	}

	@Override
	public CompletableFuture<Object> run(LockKey key, String action, RedisScript<?> script, List<String> keys,
			List<String> args) {
		byte[][] keyBytes = ScriptPipeline.bytes(keys);
		byte[][] argBytes = ScriptPipeline.bytes(args);
		return withCommands(key, action,
				(commands, answer) -> send(commands, true, key, action, script, keyBytes, argBytes, answer));
	}

	@Override
	public CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis) {
		byte[] redisKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
		byte[] token = value.getBytes(StandardCharsets.UTF_8);
		SetArgs nxPx = SetArgs.Builder.nx().px(leaseMillis);
		return command(key, "acquire", (commands) -> commands.set(redisKey, token, nxPx)).thenApply("OK"::equals);
	}

	@Override
	public CompletableFuture<String> get(LockKey key) {
		byte[] redisKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
		return command(key, "read", (commands) -> commands.get(redisKey)).thenApply((value) -> (String) value);
	}

	/**
	 * Send one plain command on the shared connection; its answer is normalized as a
	 * script's is.
	 */
	private CompletableFuture<Object> command(LockKey key, String action,
			Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<?>> command) {
		return withCommands(key, action, (commands, answer) -> {
			try {
				command.apply(commands).whenComplete((reply, failure) -> {
					if (failure == null) {
						answer.complete(ScriptPipeline.decode(reply));
					}
					else {
						answer.completeExceptionally(failure(key, action, failure));
					}
				});
			}
			catch (RuntimeException ex) {
				answer.completeExceptionally(failure(key, action, ex));
			}
		});
	}

	/**
	 * Release with the server's compare-and-delete where it has one (see
	 * {@link NativeRelease}), else with the script.
	 */
	@Override
	public CompletableFuture<Object> deleteIfEquals(LockKey key, String value, String channel, RedisScript<?> script) {
		return this.nativeRelease.release(key, value, channel, script);
	}

	/**
	 * Run a sender with the shared connection's commands, from the calling thread when
	 * the connection is there. Connecting (the first call, or after the connection was
	 * closed) happens on a command thread instead: a Redis that accepts connections but
	 * does not answer would hold the caller there, under the connection factory's lock,
	 * for the connect timeout, whatever its wait; an interrupt would break it, too. The
	 * caller waits for the answer only as long as its wait allows.
	 */
	CompletableFuture<Object> withCommands(LockKey key, String action, Sender sender) {
		CompletableFuture<Object> answer = new CompletableFuture<>();
		SharedCommands shared = this.shared;
		if (shared != null && shared.connection().isOpen()) {
			sender.send(shared.commands(), answer);
			return answer;
		}
		try {
			this.runner.submit(this::nativeCommands).whenComplete((commands, failure) -> {
				if (failure != null) {
					answer.completeExceptionally(failure(key, action, failure));
				}
				else {
					sender.send(commands, answer);
				}
			});
		}
		catch (RuntimeException ex) {
			answer.completeExceptionally(failure(key, action, ex));
		}
		return answer;
	}

	@Override
	public boolean connect() {
		nativeCommands();
		return true;
	}

	private RedisClusterAsyncCommands<byte[], byte[]> nativeCommands() {
		SharedCommands shared = this.shared;
		if (shared != null && shared.connection().isOpen()) {
			return shared.commands();
		}
		try (RedisConnection connection = this.factory.getConnection()) {
			@SuppressWarnings("unchecked")
			RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection
				.getNativeConnection();
			StatefulConnection<?, ?> stateful = (commands instanceof RedisAsyncCommands<?, ?> standalone)
					? standalone.getStatefulConnection()
					: (commands instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster)
							? cluster.getStatefulConnection() : null;
			this.shared = (stateful != null) ? new SharedCommands(commands, stateful) : null;
			return commands;
		}
	}

	void send(RedisClusterAsyncCommands<byte[], byte[]> commands, boolean bySha, LockKey key, String action,
			RedisScript<?> script, byte[][] keys, byte[][] args, CompletableFuture<Object> answer) {
		ScriptOutputType output = List.class.isAssignableFrom(script.getResultType()) ? ScriptOutputType.MULTI
				: ScriptOutputType.INTEGER;
		try {
			CompletableFuture<Object> sent = (bySha ? commands.<Object>evalsha(script.getSha1(), output, keys, args)
					: commands.<Object>eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), output, keys,
							args))
				.toCompletableFuture();
			sent.whenComplete((reply, failure) -> {
				if (failure == null) {
					answer.complete(ScriptPipeline.decode(reply));
				}
				else if (bySha && failure instanceof RedisNoScriptException) {
					// A restarted or flushed Redis: the same connection sends the body.
					send(commands, false, key, action, script, keys, args, answer);
				}
				else {
					answer.completeExceptionally(failure(key, action, failure));
				}
			});
		}
		catch (RuntimeException ex) {
			answer.completeExceptionally(failure(key, action, ex));
		}
	}

	Throwable failure(LockKey key, String action, Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof Error) {
			return cause;
		}
		// Lettuce fails commands with the channel's own exception when the connection
		// drops, which may be a checked one (an IOException for a reset).
		RuntimeException runtime = (cause instanceof RuntimeException unchecked) ? unchecked
				: new RedisConnectionFailureException(String.valueOf(cause.getMessage()), cause);
		DataAccessException translated = this.factory.translateExceptionIfPossible(runtime);
		return RedisCall.failure(key, action, (translated != null) ? translated : runtime);
	}

	static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/**
	 * Sends one call's commands and completes its answer.
	 */
	@FunctionalInterface
	interface Sender {

		void send(RedisClusterAsyncCommands<byte[], byte[]> commands, CompletableFuture<Object> answer);

	}

	private record SharedCommands(RedisClusterAsyncCommands<byte[], byte[]> commands,
			StatefulConnection<?, ?> connection) {

	}

}
