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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The token protocol's release on Lettuce: the server's own compare-and-delete where it
 * has one and the user may send it (Valkey's {@code DELIFEQ}, Redis's
 * {@code DELEX ... IFEQ}), else {@code token-release.lua}.
 * <p>
 * The first release asks which ({@code native-release-check.lua}); a command refused
 * later (a failover to an older server, a right taken away) sends that release and all
 * later ones to the script. The command deletes only our unmarked token: a release that
 * nobody waits for, which needs no announcement. When it deletes nothing, the token is
 * marked by a waiter or the lock is lost, and the script tells which, and announces the
 * release if it deletes.
 *
 * @author setnx-lock authors
 */
final class NativeRelease {

	private static final Log logger = LogFactory.getLog(NativeRelease.class);

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

	/**
	 * Whether the server has a compare-and-delete this user may send: {@code 1} for
	 * {@code DELIFEQ}, {@code 2} for {@code DELEX}, {@code 0} for neither.
	 */
	private static final LockScript NATIVE_RELEASE_CHECK = LockScript.of(NativeRelease.class, "release", false,
			"native-release-check.lua");

	/**
	 * How token locks are released: unknown until the first release asks, then
	 * {@code DELIFEQ}, {@code DELEX} or the script.
	 */
	private final AtomicReference<CompareAndDelete> compareAndDelete = new AtomicReference<>(CompareAndDelete.UNKNOWN);

	private final LettuceScriptCalls calls;

	NativeRelease(LettuceScriptCalls calls) {
		this.calls = calls;
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
	CompletableFuture<Object> release(LockKey key, String ownerToken, String channel, RedisScript<?> script) {
		CompareAndDelete how = this.compareAndDelete.get();
		boolean ask = how == CompareAndDelete.UNKNOWN
				&& this.compareAndDelete.compareAndSet(CompareAndDelete.UNKNOWN, CompareAndDelete.ASKING);
		if (!ask && !how.isNative()) {
			return this.calls.withCommands(key, "release", (commands, answer) -> releaseWithScript(commands, key,
					script, key.redisKey().getBytes(StandardCharsets.UTF_8),
					ownerToken.getBytes(StandardCharsets.UTF_8), channel.getBytes(StandardCharsets.UTF_8), answer));
		}
		byte[] lockKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
		byte[] token = ownerToken.getBytes(StandardCharsets.UTF_8);
		byte[] channelBytes = channel.getBytes(StandardCharsets.UTF_8);
		LettuceScriptCalls.Sender release = (commands, answer) -> {
			try {
				CompareAndDelete current = this.compareAndDelete.get();
				if (current.isNative()) {
					deleteIfEquals(current, commands, key, script, lockKey, token, channelBytes, answer);
				}
				else {
					releaseWithScript(commands, key, script, lockKey, token, channelBytes, answer);
				}
			}
			catch (RuntimeException ex) {
				answer.completeExceptionally(this.calls.failure(key, "release", ex));
			}
		};
		if (!ask) {
			return this.calls.withCommands(key, "release", release);
		}
		CompletableFuture<Object> asked;
		try {
			asked = this.calls.withCommands(key, "release", askFirst(key, lockKey, release));
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

	private LettuceScriptCalls.Sender askFirst(LockKey key, byte[] lockKey, LettuceScriptCalls.Sender release) {
		return (commands, answer) -> {
			if (!(commands instanceof RedisAsyncCommands)) {
				// Cluster connections keep the script: the command goes out through a
				// standalone connection's dispatch, and is not routed by slot.
				this.compareAndDelete.set(CompareAndDelete.SCRIPT);
				release.send(commands, answer);
				return;
			}
			CompletableFuture<Object> check = new CompletableFuture<>();
			this.calls.send(commands, true, key, "release", NATIVE_RELEASE_CHECK.redisScript(),
					new byte[][] { lockKey }, new byte[0][], check);
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
			RedisScript<?> script, byte[] lockKey, byte[] token, byte[] channelBytes,
			CompletableFuture<Object> answer) {
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
					releaseWithScript(commands, key, script, lockKey, token, channelBytes, answer);
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
				releaseWithScript(commands, key, script, lockKey, token, channelBytes, answer);
			}
			else {
				answer.completeExceptionally(this.calls.failure(key, "release", failure));
			}
		});
	}

	private void releaseWithScript(RedisClusterAsyncCommands<byte[], byte[]> commands, LockKey key,
			RedisScript<?> script, byte[] lockKey, byte[] token, byte[] channelBytes,
			CompletableFuture<Object> answer) {
		this.calls.send(commands, true, key, "release", script, new byte[][] { lockKey },
				new byte[][] { token, channelBytes }, answer);
	}

	/**
	 * Whether a compare-and-delete met a key of another type: Valkey's {@code DELIFEQ}
	 * says {@code WRONGTYPE}, Redis's {@code DELEX} (8.6) "Key should be of string type
	 * if conditions are specified".
	 */
	private static boolean isWrongType(Throwable failure) {
		Throwable cause = LettuceScriptCalls.unwrap(failure);
		String message = String.valueOf(cause.getMessage());
		return cause instanceof RedisCommandExecutionException
				&& (message.startsWith("WRONGTYPE") || message.contains("should be of string type"));
	}

	private static boolean isRefused(Throwable failure) {
		Throwable cause = LettuceScriptCalls.unwrap(failure);
		String message = String.valueOf(cause.getMessage());
		return cause instanceof RedisCommandExecutionException
				&& (message.startsWith("ERR unknown command") || message.startsWith("NOPERM"));
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

}
