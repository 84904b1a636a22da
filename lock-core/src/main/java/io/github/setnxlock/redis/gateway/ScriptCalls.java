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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Sends the lock scripts that a caller waits for, and hands back their answers to come,
 * so that the caller waits with its own deadline and its own handling of interrupts.
 * <p>
 * On Lettuce with a shared native connection (Spring Boot's default) the script goes out
 * on that connection's asynchronous API, from the calling thread, and the answer arrives
 * on Lettuce's event loop: an acquire or a release costs one round trip and no thread of
 * ours. Other clients (Jedis, a Lettuce factory that does not share its connection) block
 * while they wait, so there the template runs the script on a {@link CommandRunner}
 * thread, which a caller can stop waiting for.
 * <p>
 * An answer is normalized to what {@link RedisCall} reads: a {@link Long}, a
 * {@link String}, {@code null}, or a {@link List} of those. A failure is a
 * {@link io.github.setnxlock.LockAccessException} naming the lock and what Redis said.
 *
 * @author setnx-lock authors
 */
interface ScriptCalls {

	/**
	 * Run a script.
	 * @param key the lock it is for, which errors name
	 * @param action what it does, for errors ("acquire", "release")
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return its answer to come
	 * @throws CommandRunner.RedisStalledException when the script would need a thread and
	 * too many already wait for Redis
	 */
	CompletableFuture<Object> run(LockKey key, String action, RedisScript<?> script, List<String> keys,
			List<String> args);

	/**
	 * Delete the lock key while it holds the value, with the script (its key the lock
	 * key, its arguments the value and the channel). Calls that can send the server's own
	 * compare-and-delete command do so first where the server has one (see
	 * {@link LettuceScriptCalls}).
	 * @param key the lock
	 * @param value the value the key must hold
	 * @param channel the release channel
	 * @param script the script
	 * @return {@code 1L} when the server's command deleted, else the script's answer, to
	 * come
	 */
	default CompletableFuture<Object> deleteIfEquals(LockKey key, String value, String channel, RedisScript<?> script) {
		return run(key, "release", script, List.of(key.redisKey()), List.of(value, channel));
	}

	/**
	 * Send {@code SET key value NX PX lease}: the token protocol's first acquisition
	 * step, a plain command rather than a script.
	 * @param key the lock
	 * @param value the owner token
	 * @param leaseMillis the lease in ms
	 * @return whether the key was set, to come
	 */
	CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis);

	/**
	 * Send {@code GET key}.
	 * @param key the lock
	 * @return the key's value, or {@code null} without a key, to come
	 */
	CompletableFuture<String> get(LockKey key);

	/**
	 * Open the connection the calls go out on, on the calling thread, so that the first
	 * call finds it open: where the calls keep one of their own (Lettuce's shared
	 * connection); others connect with their first command.
	 * @return whether a connection is open now
	 */
	default boolean connect() {
		return false;
	}

	/**
	 * Choose the calls for a template as it is now.
	 * @param redis the template
	 * @param runner the threads for clients that block
	 * @return the calls
	 */
	static ScriptCalls choose(StringRedisTemplate redis, CommandRunner runner) {
		RedisConnectionFactory factory = redis.getConnectionFactory();
		if (factory != null
				&& ClassUtils.isPresent("io.lettuce.core.RedisClient", ScriptCalls.class.getClassLoader())) {
			ScriptCalls lettuce = LettuceScriptCalls.forFactory(factory, runner);
			if (lettuce != null) {
				return lettuce;
			}
		}
		return onThreads(redis, runner);
	}

	/**
	 * Return calls that run each script through the template on a runner thread.
	 * @param redis the template
	 * @param runner the threads
	 * @return the calls
	 */
	static ScriptCalls onThreads(StringRedisTemplate redis, CommandRunner runner) {
		return new ScriptCalls() {

			@Override
			public CompletableFuture<Object> run(LockKey key, String action, RedisScript<?> script, List<String> keys,
					List<String> args) {
				return runner
					.submit(() -> RedisCall.run(key, action, () -> redis.execute(script, keys, args.toArray())));
			}

			@Override
			public CompletableFuture<String> get(LockKey key) {
				return runner.submit(() -> RedisCall.run(key, "read", () -> redis.opsForValue().get(key.redisKey())));
			}

			@Override
			public CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis) {
				return runner.submit(() -> Boolean.TRUE.equals(RedisCall.run(key, "acquire",
						() -> redis.opsForValue().setIfAbsent(key.redisKey(), value, Duration.ofMillis(leaseMillis)))));
			}

		};
	}

}
