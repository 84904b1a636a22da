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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import io.github.setnxlock.LockAccessException;

/**
 * The one way into Redis: every command of the lock engine, the protocols and the
 * operator API goes through here. Internal API.
 * <p>
 * Every call returns a future and never blocks its caller: scripts go out from the
 * calling thread on Lettuce's asynchronous API where the template's factory allows it
 * (see {@link LettuceScriptCalls}), and everything else runs on the gateway's own
 * threads, so the caller waits with its own deadline and an interrupt never cuts a
 * command short. Answers are decoded here, once, into each script's reply type, and a
 * failure of a call for one lock comes out as a {@link LockAccessException} that names
 * the lock and what was being done (a batch of renewals for many locks fails with the
 * client's own exception, and a closed gateway with an {@link IllegalStateException}).
 * Nothing is sent when the gateway is made: the client is chosen, and the first
 * connection made, on the first call.
 *
 * @author setnx-lock authors
 */
public final class RedisGateway implements AutoCloseable {

	private final StringRedisTemplate redis;

	private final CommandRunner runner = new CommandRunner();

	private final ScriptCalls calls;

	/** What stops the listeners of {@link #onReconnect(Runnable)}, run on close. */
	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Create a gateway on a template.
	 * @param redis the template
	 */
	public RedisGateway(StringRedisTemplate redis) {
		this.redis = Objects.requireNonNull(redis, "redis must not be null");
		this.calls = new ChosenScriptCalls(redis, this.runner);
	}

	/**
	 * Run a lock script.
	 * @param <R> the type of its answer
	 * @param script the script
	 * @param key the lock it is for
	 * @param keys its keys
	 * @param args its arguments
	 * @return its decoded answer, to come
	 */
	public <R> CompletableFuture<R> run(LockScript<R> script, LockKey key, List<String> keys, List<String> args) {
		return sent(key, script.action(), () -> this.calls.run(key, script.action(), script.redisScript(), keys, args))
			.thenApply((answer) -> script.decode(key, answer));
	}

	/**
	 * Send {@code SET key value NX PX lease}, the token protocol's plain acquisition.
	 * @param key the lock
	 * @param value the owner token
	 * @param leaseMillis the lease in ms
	 * @return whether the key was set, to come
	 */
	public CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis) {
		return sent(key, "acquire", () -> this.calls.setIfAbsent(key, value, leaseMillis));
	}

	/**
	 * Run the token protocol's release: {@link LockScripts#TOKEN_RELEASE}, or the
	 * server's own compare-and-delete where it has one (see {@link NativeRelease}).
	 * @param key the lock
	 * @param ownerToken the token the key must hold
	 * @param channel the release channel
	 * @return the answer, to come
	 */
	public CompletableFuture<TokenReleaseReply> releaseToken(LockKey key, String ownerToken, String channel) {
		return sent(key, "release", () -> this.calls.releaseToken(key, ownerToken, channel))
			.thenApply((answer) -> TokenReleaseReply.decode(key, answer));
	}

	/**
	 * Run one script for many locks in one round trip (a pipeline where the client has
	 * one), on a thread of the gateway. Each answer is decoded on its own: a malformed
	 * one fails its entry only; a batch Redis refuses fails as a whole.
	 * @param <R> the type of an answer
	 * @param script the script
	 * @param locks the lock of each call
	 * @param keyCount how many of each call's values are keys
	 * @param calls each call's keys, then its arguments
	 * @return the answers in the order of the calls, to come
	 */
	public <R> CompletableFuture<List<Replied<R>>> runBatch(LockScript<R> script, List<LockKey> locks, int keyCount,
			List<List<String>> calls) {
		ReturnType returnType = script.returnsList() ? ReturnType.MULTI : ReturnType.INTEGER;
		Supplier<List<Replied<R>>> batch = () -> {
			List<Object> answers = ScriptPipeline.run(this.redis, script.redisScript(), returnType, keyCount, calls);
			List<Replied<R>> replies = new ArrayList<>(answers.size());
			for (int i = 0; i < answers.size(); i++) {
				try {
					replies.add(new Replied<>(script.decode(locks.get(i), answers.get(i)), null));
				}
				catch (RuntimeException ex) {
					replies.add(new Replied<>(null, ex));
				}
			}
			return replies;
		};
		try {
			return this.runner.submit(batch);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Run a lock script, then wait until replicas acknowledged what it wrote
	 * ({@code WAIT}), on the connection that wrote it. Refused on a Redis Cluster
	 * connection (see {@link AcknowledgedCall}).
	 * @param <R> the type of its answer
	 * @param script the script
	 * @param key the lock it is for
	 * @param keys its keys
	 * @param args its arguments
	 * @param replicas how many replicas must acknowledge
	 * @param timeoutMillis how long they have
	 * @return the answer and the acknowledgements, to come
	 */
	public <R> CompletableFuture<Acknowledged<R>> runAcknowledged(LockScript<R> script, LockKey key, List<String> keys,
			List<String> args, int replicas, long timeoutMillis) {
		return sent(key, script.action(), () -> this.runner
			.submit(() -> AcknowledgedCall.run(this.redis, script, key, keys, args, replicas, timeoutMillis)));
	}

	/**
	 * Return whether the lock key exists.
	 * @param key the lock
	 * @return whether it exists, to come
	 */
	public CompletableFuture<Boolean> exists(LockKey key) {
		return sent(key, "read", () -> this.runner
			.submit(() -> Boolean.TRUE.equals(RedisCall.run(key, "read", () -> this.redis.hasKey(key.redisKey())))));
	}

	/**
	 * Read the value of a lock key ({@code GET}).
	 * @param key the lock
	 * @return its value, or {@code null} without a key, to come
	 */
	public CompletableFuture<String> value(LockKey key) {
		return sent(key, "read", () -> this.calls.get(key));
	}

	/**
	 * Read a lock key: its type and time to live, and its value if asked and a string.
	 * @param key the lock
	 * @param withValue whether to read the value
	 * @return what Redis holds, to come
	 */
	public CompletableFuture<KeyReading> read(LockKey key, boolean withValue) {
		return sent(key, "read", () -> this.runner.submit(
				() -> RedisCall.run(key, "read", () -> this.redis.execute((RedisCallback<KeyReading>) (connection) -> {
					byte[] redisKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
					String type = connection.keyCommands().type(redisKey).code();
					Long ttl = connection.keyCommands().pTtl(redisKey);
					String value = null;
					if (withValue && "string".equals(type)) {
						byte[] raw = connection.stringCommands().get(redisKey);
						value = (raw != null) ? new String(raw, StandardCharsets.UTF_8) : null;
					}
					return new KeyReading(type, (ttl != null) ? ttl : -2, value);
				}))));
	}

	/**
	 * Check that Redis holds every lock script, loading those it has forgotten, on the
	 * calling thread: for health checks, not for the lock path.
	 * @return the number of scripts
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be used
	 */
	public int loadScripts() {
		String[] shas = LockScripts.ALL.stream().map(LockScript::sha1).toArray(String[]::new);
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			List<Boolean> loaded = connection.scriptingCommands().scriptExists(shas);
			for (int i = 0; i < shas.length; i++) {
				if (loaded == null || !Boolean.TRUE.equals(loaded.get(i))) {
					connection.scriptingCommands()
						.scriptLoad(LockScripts.ALL.get(i)
							.redisScript()
							.getScriptAsString()
							.getBytes(StandardCharsets.UTF_8));
				}
			}
			return null;
		});
		return shas.length;
	}

	/**
	 * Read how long the server has been running ({@code INFO server}), on a command
	 * thread.
	 * @return its {@code uptime_in_seconds}, to come
	 */
	public CompletableFuture<Long> uptimeSeconds() {
		try {
			return this.runner.submit(() -> {
				Properties info = this.redis
					.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
				String uptime = (info != null) ? info.getProperty("uptime_in_seconds") : null;
				if (uptime == null) {
					throw new IllegalArgumentException("INFO server gave no uptime_in_seconds");
				}
				return Long.parseLong(uptime.trim());
			});
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Call a listener whenever the client opens a connection to the server again (and
	 * before anything sent on it is answered), where the client tells: Lettuce does; a
	 * pooled client, which opens connections as it needs them, does not.
	 * @param connected the listener; must not block
	 * @return whether the listener will hear reconnections
	 */
	public boolean onReconnect(Runnable connected) {
		if (!ClassUtils.isPresent("io.lettuce.core.RedisClient", RedisGateway.class.getClassLoader())) {
			return false;
		}
		Runnable stop = LettuceReconnects.listen(this.redis.getConnectionFactory(), connected);
		if (stop != null) {
			// The factory may outlive the gateway.
			this.listeners.add(stop);
		}
		return stop != null;
	}

	/**
	 * Make the subscription to the release channel, not yet subscribed: it subscribes on
	 * its first {@link ReleaseSubscription#isListening()}.
	 * @param channel the release channel
	 * @param keyspacePattern the keyspace notification pattern of the lock keys (see
	 * {@link #keyspacePattern}), or {@code null} not to listen to keyspace notifications
	 * @param listener hears the released keys
	 * @return the subscription
	 */
	public ReleaseSubscription subscribe(String channel, String keyspacePattern, ReleaseListener listener) {
		return new ReleaseSubscription(this.redis, channel, keyspacePattern, listener, this.runner);
	}

	/**
	 * Return the keyspace notification pattern of every lock key with the given prefix,
	 * the prefix's glob characters escaped.
	 * @param keyPrefix the key prefix
	 * @return the pattern
	 */
	public static String keyspacePattern(String keyPrefix) {
		StringBuilder pattern = new StringBuilder("__keyspace@*__:");
		for (char c : keyPrefix.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append('*').toString();
	}

	/**
	 * Stop the gateway's threads; calls fail afterwards.
	 */
	@Override
	public void close() {
		this.listeners.forEach(Runnable::run);
		this.listeners.clear();
		this.runner.close();
	}

	/**
	 * Start a call, turning a refusal to start it (the gateway's threads all wait for a
	 * stalled Redis) into a failed answer that names the lock.
	 */
	private static <T> CompletableFuture<T> sent(LockKey key, String action, Supplier<CompletableFuture<T>> call) {
		try {
			return call.get();
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

	/**
	 * One answer of a batch: decoded, or what went wrong with it.
	 *
	 * @param <R> the type of the answer
	 * @param reply the answer, or {@code null} when it failed
	 * @param failure what went wrong, or {@code null}
	 */
	public record Replied<R>(R reply, RuntimeException failure) {

	}

	/**
	 * A script's answer, and how many replicas acknowledged what it wrote.
	 *
	 * @param <R> the type of the answer
	 * @param reply the answer
	 * @param replicas how many replicas acknowledged, {@code -1} when {@code WAIT} failed
	 * @param waitFailure why {@code WAIT} failed, or {@code null}
	 */
	public record Acknowledged<R>(R reply, long replicas, RuntimeException waitFailure) {

	}

	/**
	 * What Redis holds at a lock key.
	 *
	 * @param type the key's Redis type, {@code none} when there is no key
	 * @param ttlMillis its time to live in ms; {@code -1} without one, {@code -2} without
	 * a key
	 * @param value its value when asked for and a string, else {@code null}
	 */
	public record KeyReading(String type, long ttlMillis, String value) {

	}

}
