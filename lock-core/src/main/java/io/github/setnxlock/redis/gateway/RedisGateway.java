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

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LockAccessException;

/**
 * The one way into Redis: every command of the lock engine, the protocols and the
 * operator API goes through here. Internal API.
 * <p>
 * Every call returns a future and never blocks its caller: scripts go out from the
 * calling thread on Lettuce's asynchronous API where the template's factory allows it
 * (see {@link LettuceScriptCalls}), and everything else runs on the gateway's own
 * threads, so the caller waits with its own deadline and an interrupt never cuts a
 * command short. Answers come back as Redis gave them (strings decoded); what they mean
 * is the business of the protocol that owns the script. A failure of a call for one lock
 * comes out as a {@link LockAccessException} that names the lock and what was being done
 * (a batch of renewals for many locks fails with the client's own exception, and a closed
 * gateway with an {@link IllegalStateException}). Nothing is sent when the gateway is
 * made: the client is chosen, and the first connection made, on the first call or
 * {@link #warmUp()}. What the calls show of Redis (not heard from yet, answering, or out
 * of reach) is kept in its {@link Reachability}.
 *
 * @author setnx-lock authors
 */
public final class RedisGateway implements AutoCloseable {

	private final StringRedisTemplate redis;

	private final CommandRunner runner = new CommandRunner();

	private final ScriptCallsChoice scriptCalls;

	private final WatchedCalls watched;

	private final Reachability reachability = new Reachability();

	private final ScriptLoads scripts;

	private final Reconnections reconnections;

	/**
	 * Create a gateway on a template.
	 * @param redis the template
	 * @param scripts the scripts that {@link #warmUp()} and {@link #loadScripts()} load:
	 * those of the protocol that uses the gateway, and the operator's
	 */
	public RedisGateway(StringRedisTemplate redis, List<LockScript> scripts) {
		this.redis = Objects.requireNonNull(redis, "redis must not be null");
		this.scripts = new ScriptLoads(redis, this.runner, this.reachability, List.copyOf(scripts));
		this.reconnections = new Reconnections(redis);
		this.scriptCalls = new ScriptCallsChoice(redis, this.runner);
		this.watched = new WatchedCalls(this.runner, this.reachability);
	}

	/**
	 * Run a lock script.
	 * @param script the script
	 * @param key the lock it is for
	 * @param keys its keys
	 * @param args its arguments
	 * @return its answer, to come: a {@link Long}, a {@link String}, {@code null}, or a
	 * {@link List} of those, which the script's protocol reads
	 */
	public CompletableFuture<Object> run(LockScript script, LockKey key, List<String> keys, List<String> args) {
		return this.watched.sent(key, script.action(),
				() -> this.scriptCalls.get().run(key, script.action(), script.redisScript(), keys, args));
	}

	/**
	 * Send {@code SET key value NX PX lease}, the token protocol's plain acquisition.
	 * @param key the lock
	 * @param value the owner token
	 * @param leaseMillis the lease in ms
	 * @return whether the key was set, to come
	 */
	public CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis) {
		return this.watched.sent(key, "acquire", () -> this.scriptCalls.get().setIfAbsent(key, value, leaseMillis));
	}

	/**
	 * Delete the lock key if it holds the value: with the server's own compare-and-delete
	 * where it has one and it deletes (see {@link NativeRelease}), else with the script
	 * (its key the lock key, its arguments the value and the channel).
	 * @param key the lock
	 * @param value the value the key must hold
	 * @param channel the release channel
	 * @param script the script that does the same, and more
	 * @return {@code 1L} when the server's command deleted, else the script's answer, to
	 * come
	 */
	public CompletableFuture<Object> deleteIfEquals(LockKey key, String value, String channel, LockScript script) {
		return this.watched.sent(key, "release",
				() -> this.scriptCalls.get().deleteIfEquals(key, value, channel, script.redisScript()));
	}

	/**
	 * Run one script for many locks in one round trip (a pipeline where the client has
	 * one), on a thread of the gateway; a batch Redis refuses fails as a whole.
	 * @param script the script
	 * @param keyCount how many of each call's values are keys
	 * @param calls each call's keys, then its arguments
	 * @return the answers in the order of the calls, to come
	 */
	public CompletableFuture<List<Object>> runBatch(LockScript script, int keyCount, List<List<String>> calls) {
		ReturnType returnType = script.returnsList() ? ReturnType.MULTI : ReturnType.INTEGER;
		return this.watched.sent(() -> this.runner
			.submit(() -> ScriptPipeline.run(this.redis, script.redisScript(), returnType, keyCount, calls)));
	}

	/**
	 * Run a lock script, then wait until replicas acknowledged what it wrote
	 * ({@code WAIT}), on the connection that wrote it. Refused on a Redis Cluster
	 * connection (see {@link AcknowledgedCall}).
	 * @param script the script
	 * @param key the lock it is for
	 * @param keys its keys
	 * @param args its arguments
	 * @param replicas how many replicas must acknowledge
	 * @param timeoutMillis how long they have
	 * @return the answer and the acknowledgements, to come
	 */
	public CompletableFuture<Acknowledged<Object>> runAcknowledged(LockScript script, LockKey key, List<String> keys,
			List<String> args, int replicas, long timeoutMillis) {
		return this.watched.sent(key, script.action(), () -> this.runner
			.submit(() -> AcknowledgedCall.run(this.redis, script, key, keys, args, replicas, timeoutMillis)));
	}

	/**
	 * {@return whether the lock key exists, to come}
	 * @param key the lock
	 */
	public CompletableFuture<Boolean> exists(LockKey key) {
		return this.watched.onThread(key, "read", () -> Boolean.TRUE.equals(this.redis.hasKey(key.redisKey())));
	}

	/**
	 * Read the value of a lock key ({@code GET}).
	 * @param key the lock
	 * @return its value, or {@code null} without a key, to come
	 */
	public CompletableFuture<String> value(LockKey key) {
		return this.watched.sent(key, "read", () -> this.scriptCalls.get().get(key));
	}

	/**
	 * Read a lock key's type and time to live, its value if asked, and the timestamp
	 * protocol's owner key if asked, on a command thread.
	 * @param key the lock key
	 * @param withValue whether to read the value of a string key
	 * @param withOwner whether to read the owner key's value too
	 * @return what the keys hold, to come
	 */
	public CompletableFuture<KeyReading> read(LockKey key, boolean withValue, boolean withOwner) {
		return this.watched.onThread(key, "read",
				() -> this.redis.execute(KeyReads.reading(key, withValue, withOwner)));
	}

	/**
	 * Find keys whose names match a pattern ({@code SCAN ... MATCH}), on every primary of
	 * a Cluster, on a command thread; at most {@code limit} of them.
	 * @param pattern the glob pattern
	 * @param limit the most keys to return
	 * @return the keys found, to come
	 */
	public CompletableFuture<List<String>> scan(String pattern, int limit) {
		LockKey any = LockKey.of("", "scan " + pattern);
		return this.watched.onThread(any, "list", () -> this.redis.execute(KeyReads.scanning(pattern, limit)));
	}

	/**
	 * Check that Redis holds the gateway's scripts, loading those it has forgotten: for
	 * health checks, not for the lock path. The calling thread waits for Redis a second
	 * at most, whatever the client's command timeout (see {@link ScriptLoads}).
	 * @return the number of scripts
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be used, or did
	 * not answer in time (saying why Redis counts as unreachable, where a call found out)
	 */
	public int loadScripts() {
		return this.scripts.check();
	}

	/**
	 * Connect and load the gateway's scripts, in the background, so that the first lock
	 * call finds the connection open and the scripts in Redis. Never throws for Redis's
	 * sake: the future fails instead, and calls connect as usual.
	 * @return the number of scripts, to come
	 */
	public CompletableFuture<Integer> warmUp() {
		return this.scripts.warmUp(this.reconnections, () -> this.scriptCalls.get().connect());
	}

	/**
	 * {@return what the gateway's calls have shown of Redis: whether its first connection
	 * is still on its way, and whether Redis is known to be unreachable}
	 */
	public Reachability reachability() {
		return this.reachability;
	}

	/**
	 * {@return how long the server has been running, its {@code uptime_in_seconds} of
	 * {@code INFO server}, to come}
	 */
	public CompletableFuture<Long> uptimeSeconds() {
		return this.watched.sent(() -> this.runner.submit(() -> this.redis.execute(KeyReads.uptimeSeconds())));
	}

	/**
	 * Call a listener whenever the client opens a connection to the server again (and
	 * before anything sent on it is answered), where the client tells: Lettuce does; a
	 * pooled client, which opens connections as it needs them, does not.
	 * @param connected the listener; must not block
	 * @return whether the listener will hear reconnections
	 */
	public boolean onReconnect(Runnable connected) {
		return this.reconnections.listen(connected);
	}

	/**
	 * {@return how many connections the client has opened, reconnections included, since
	 * the gateway began to listen (on its first call of this method)} A client that
	 * reconnects may send the commands it had sent on the old connection again, so a
	 * command whose answer comes after a change of this number may have run twice.
	 * Clients that never send a command again (Jedis) always give the same number.
	 */
	public long connectionsOpened() {
		return this.reconnections.opened();
	}

	/**
	 * {@return a subscription to the release channel, not yet subscribed: it subscribes
	 * on its first {@link ReleaseMessages#isListening()}}
	 * @param channel the release channel
	 * @param keyspacePattern the keyspace notification pattern of the lock keys (see
	 * {@link ReleaseMessages#keyspacePattern}), or {@code null} not to listen to keyspace
	 * notifications
	 * @param listener hears the released keys
	 */
	public ReleaseMessages subscribe(String channel, String keyspacePattern, ReleaseListener listener) {
		return new ReleaseSubscription(this.redis, channel, keyspacePattern, listener, this.runner);
	}

	/** Stop the gateway's threads; calls fail afterwards. */
	@Override
	public void close() {
		this.reconnections.close();
		this.runner.close();
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
	 * @param owner the timestamp protocol's owner key's value when asked for and a
	 * string, else {@code null}
	 */
	public record KeyReading(String type, long ttlMillis, String value, String owner) {

		/**
		 * Return the owner token the timestamp protocol's owner key gives for the lock
		 * key's value: {@code <owner token> <value>}, read only when it names the value
		 * read, since otherwise it is another acquisition's or stale.
		 * @return the token, or {@code null}
		 */
		public String ownerToken() {
			int space = (this.owner != null) ? this.owner.indexOf(' ') : -1;
			return (space > 0 && this.value != null && this.owner.substring(space + 1).equals(this.value))
					? this.owner.substring(0, space) : null;
		}

	}

}
