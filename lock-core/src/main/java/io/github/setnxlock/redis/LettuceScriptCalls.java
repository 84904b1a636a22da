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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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
 * {@link #releaseToken}).
 *
 * @author setnx-lock authors
 */
final class LettuceScriptCalls implements ScriptCalls {

	private static final Log logger = LogFactory.getLog(LettuceScriptCalls.class);

	/**
	 * Valkey's compare-and-delete (9.0 and later): {@code DELIFEQ key value} deletes the
	 * key if it holds the value, and answers 1 or 0.
	 */
	private static final ProtocolKeyword DELIFEQ = keyword("DELIFEQ");

	/**
	 * Redis's compare-and-delete (8.4 and later): {@code DELEX key IFEQ value} deletes
	 * the key if it holds the value, and answers 1 or 0.
	 */
	private static final ProtocolKeyword DELEX = keyword("DELEX");

	private static final byte[] IFEQ = "IFEQ".getBytes(StandardCharsets.US_ASCII);

	private final LettuceConnectionFactory factory;

	private final CommandRunner runner;

	/**
	 * The factory's shared connection, kept while it stays open: asking the factory for
	 * it on every call makes a Spring Data Redis connection object each time. A factory
	 * that resets or stops closes it, and the next call asks again; Lettuce reconnects an
	 * open one by itself.
	 */
	private volatile SharedCommands shared;

	/**
	 * How token locks are released: unknown until the first release asks, then
	 * {@code DELIFEQ}, {@code DELEX} or the script.
	 */
	private final AtomicReference<CompareAndDelete> compareAndDelete = new AtomicReference<>(CompareAndDelete.UNKNOWN);

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
		byte[][] keyBytes = bytes(keys);
		byte[][] argBytes = bytes(args);
		return withCommands(key, action,
				(commands, answer) -> send(commands, true, key, action, script, keyBytes, argBytes, answer));
	}

	/**
	 * Release with the server's compare-and-delete where it has one ({@code DELIFEQ} on
	 * Valkey 9 and later, {@code DELEX ... IFEQ} on Redis 8.4 and later) and the user may
	 * send it, else with the script; the first release asks which
	 * ({@code native-release-check.lua}). The command deletes only our unmarked token: a
	 * release that nobody waits for, which needs no announcement. When it deletes
	 * nothing, the token is marked by a waiter or the lock is lost, and the script tells
	 * which, and announces the release if it deletes. A command refused (a failover to an
	 * older server, a right taken away) sends this release and all later ones to the
	 * script.
	 */
	@Override
	public CompletableFuture<Object> releaseToken(LockKey key, String ownerToken, String channel) {
		CompareAndDelete how = this.compareAndDelete.get();
		boolean ask = how == CompareAndDelete.UNKNOWN
				&& this.compareAndDelete.compareAndSet(CompareAndDelete.UNKNOWN, CompareAndDelete.ASKING);
		if (!ask && !how.isNative()) {
			return ScriptCalls.super.releaseToken(key, ownerToken, channel);
		}
		byte[] lockKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
		byte[] token = ownerToken.getBytes(StandardCharsets.UTF_8);
		byte[] channelBytes = channel.getBytes(StandardCharsets.UTF_8);
		Sender release = (commands, answer) -> {
			try {
				CompareAndDelete current = this.compareAndDelete.get();
				if (current.isNative()) {
					deleteIfEquals(current, commands, key, lockKey, token, channelBytes, answer);
				}
				else {
					releaseWithScript(commands, key, lockKey, token, channelBytes, answer);
				}
			}
			catch (RuntimeException ex) {
				answer.completeExceptionally(failure(key, "release", ex));
			}
		};
		if (!ask) {
			return withCommands(key, "release", release);
		}
		CompletableFuture<Object> asked;
		try {
			asked = withCommands(key, "release", askFirst(key, lockKey, release));
		}
		catch (RuntimeException ex) {
			this.compareAndDelete.compareAndSet(CompareAndDelete.ASKING, CompareAndDelete.UNKNOWN);
			throw ex;
		}
		// A call that never reached Redis (no connection) did not ask: the next one does.
		asked.whenComplete((answer, failure) -> this.compareAndDelete.compareAndSet(CompareAndDelete.ASKING,
				CompareAndDelete.UNKNOWN));
		return asked;
	}

	private Sender askFirst(LockKey key, byte[] lockKey, Sender release) {
		return (commands, answer) -> {
			if (!(commands instanceof RedisAsyncCommands)) {
				// Cluster connections keep the script: the command goes out through a
				// standalone connection's dispatch, and is not routed by slot.
				this.compareAndDelete.set(CompareAndDelete.SCRIPT);
				release.send(commands, answer);
				return;
			}
			CompletableFuture<Object> check = new CompletableFuture<>();
			send(commands, true, key, "release", LockScripts.NATIVE_RELEASE_CHECK, new byte[][] { lockKey },
					new byte[0][], check);
			check.whenComplete((allowed, failure) -> {
				if (failure != null) {
					// Redis could not be asked (it may be down): the next release asks
					// again.
					this.compareAndDelete.set(CompareAndDelete.UNKNOWN);
				}
				else {
					CompareAndDelete how = Long.valueOf(1).equals(allowed) ? CompareAndDelete.DELIFEQ
							: Long.valueOf(2).equals(allowed) ? CompareAndDelete.DELEX : CompareAndDelete.SCRIPT;
					this.compareAndDelete.set(how);
					logger.debug("Token locks are released with " + (how.isNative() ? how : "a script"));
				}
				release.send(commands, answer);
			});
		};
	}

	private void deleteIfEquals(CompareAndDelete how, RedisClusterAsyncCommands<byte[], byte[]> commands, LockKey key,
			byte[] lockKey, byte[] token, byte[] channelBytes, CompletableFuture<Object> answer) {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(lockKey);
		if (how == CompareAndDelete.DELEX) {
			args.add(IFEQ);
		}
		args.addValue(token);
		AsyncCommand<byte[], byte[], Long> deleted = new AsyncCommand<>(new Command<>(
				(how == CompareAndDelete.DELEX) ? DELEX : DELIFEQ, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args));
		((RedisAsyncCommands<byte[], byte[]>) commands).getStatefulConnection().dispatch(deleted);
		deleted.whenComplete((count, failure) -> {
			if (failure == null) {
				if (Long.valueOf(1).equals(count)) {
					answer.complete(count);
				}
				else {
					releaseWithScript(commands, key, lockKey, token, channelBytes, answer);
				}
			}
			else if (isWrongType(failure)) {
				// The key holds another type: not our lock, as the script reports it.
				answer.complete(0L);
			}
			else if (isRefused(failure)) {
				// A server that lost the command (a failover to an older one) or a user
				// without the right to it: the script from now on.
				this.compareAndDelete.set(CompareAndDelete.SCRIPT);
				logger.info(how + " was refused (" + failure.getMessage() + "); locks are released with a script");
				releaseWithScript(commands, key, lockKey, token, channelBytes, answer);
			}
			else {
				answer.completeExceptionally(failure(key, "release", failure));
			}
		});
	}

	private void releaseWithScript(RedisClusterAsyncCommands<byte[], byte[]> commands, LockKey key, byte[] lockKey,
			byte[] token, byte[] channelBytes, CompletableFuture<Object> answer) {
		send(commands, true, key, "release", LockScripts.TOKEN_RELEASE, new byte[][] { lockKey },
				new byte[][] { token, channelBytes }, answer);
	}

	/**
	 * Run a sender with the shared connection's commands, from the calling thread when
	 * the connection is there. Connecting (the first call, or after the connection was
	 * closed) happens on a command thread instead: a Redis that accepts connections but
	 * does not answer would hold the caller there, under the connection factory's lock,
	 * for the connect timeout, whatever its wait; an interrupt would break it, too. The
	 * caller waits for the answer only as long as its wait allows.
	 */
	private CompletableFuture<Object> withCommands(LockKey key, String action, Sender sender) {
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

	private void send(RedisClusterAsyncCommands<byte[], byte[]> commands, boolean bySha, LockKey key, String action,
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
					answer.complete(normalize(reply));
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

	private Throwable failure(LockKey key, String action, Throwable failure) {
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

	/**
	 * Whether a compare-and-delete met a key of another type: Valkey's {@code DELIFEQ}
	 * says {@code WRONGTYPE}, Redis's {@code DELEX} (8.6) "Key should be of string type
	 * if conditions are specified".
	 */
	private static boolean isWrongType(Throwable failure) {
		Throwable cause = unwrap(failure);
		String message = String.valueOf(cause.getMessage());
		return cause instanceof RedisCommandExecutionException
				&& (message.startsWith("WRONGTYPE") || message.contains("should be of string type"));
	}

	private static boolean isRefused(Throwable failure) {
		Throwable cause = unwrap(failure);
		String message = String.valueOf(cause.getMessage());
		return cause instanceof RedisCommandExecutionException
				&& (message.startsWith("ERR unknown command") || message.startsWith("NOPERM"));
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	private static byte[][] bytes(List<String> values) {
		byte[][] bytes = new byte[values.size()][];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return bytes;
	}

	/**
	 * Turn the bulk strings of an answer into strings, as the template's serializer does.
	 */
	private static Object normalize(Object reply) {
		if (reply instanceof byte[] bulk) {
			return new String(bulk, StandardCharsets.UTF_8);
		}
		if (reply instanceof List<?> list) {
			List<Object> normalized = new ArrayList<>(list.size());
			for (Object element : list) {
				normalized.add(normalize(element));
			}
			return normalized;
		}
		return reply;
	}

	/**
	 * Sends one call's commands and completes its answer.
	 */
	@FunctionalInterface
	private interface Sender {

		void send(RedisClusterAsyncCommands<byte[], byte[]> commands, CompletableFuture<Object> answer);

	}

	private static ProtocolKeyword keyword(String name) {
		byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
		return new ProtocolKeyword() {

			@Override
			public byte[] getBytes() {
				return bytes;
			}

			@Override
			public String toString() {
				return name;
			}

		};
	}

	private enum CompareAndDelete {

		UNKNOWN, ASKING, DELIFEQ, DELEX, SCRIPT;

		boolean isNative() {
			return this == DELIFEQ || this == DELEX;
		}

	}

	private record SharedCommands(RedisClusterAsyncCommands<byte[], byte[]> commands,
			StatefulConnection<?, ?> connection) {

	}

}
