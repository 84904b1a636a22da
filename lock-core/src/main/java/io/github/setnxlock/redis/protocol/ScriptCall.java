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
package io.github.setnxlock.redis.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * One script call as a protocol prepares it: the script, its keys and arguments, and how
 * its answer reads to the engine. Prepared apart from sending, so that the
 * {@link ReplicationGuard} can send the same call with a {@code WAIT} behind it. Internal
 * API.
 *
 * @param <T> what the answer reads as: an {@link Attempt}, a fencing token
 * @param key the lock
 * @param script the script
 * @param keys its keys
 * @param args its arguments
 * @param answer how its answer, as the gateway hands it back, reads; throws a
 * {@link io.github.setnxlock.LockAccessException} for an answer the script never gives
 * @author setnx-lock authors
 */
public record ScriptCall<T>(LockKey key, LockScript script, List<String> keys, List<String> args,
		Function<Object, T> answer) {

	/**
	 * Send the call.
	 * @param gateway the way into Redis
	 * @return what the answer reads as, to come
	 */
	public CompletableFuture<T> send(RedisGateway gateway) {
		return gateway.run(this.script, this.key, this.keys, this.args).thenApply(this.answer);
	}

	CompletableFuture<RedisGateway.Acknowledged<T>> sendAcknowledged(RedisGateway gateway, int replicas,
			long timeoutMillis) {
		return gateway.runAcknowledged(this.script, this.key, this.keys, this.args, replicas, timeoutMillis)
			.thenApply((acknowledged) -> new RedisGateway.Acknowledged<>(this.answer.apply(acknowledged.reply()),
					acknowledged.replicas(), acknowledged.waitFailure()));
	}

}
