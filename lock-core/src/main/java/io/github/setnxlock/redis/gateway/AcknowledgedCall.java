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
import java.util.stream.Stream;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LockAccessException;

/**
 * A lock script followed by {@code WAIT}, for the replication guard.
 * <p>
 * {@code WAIT} counts the writes of the connection it is sent on, so it must follow the
 * script on the same connection; and it blocks that connection until the replicas answer,
 * up to its timeout. Both go out as one pipeline on one Spring Data Redis connection:
 * Lettuce runs a pipeline on a dedicated connection of its own, never on the shared one
 * that every other lock command of the application uses, so a slow replica holds up this
 * acquisition only; Jedis connections are never shared. A Redis Cluster connection is
 * refused: Spring Data Redis sends a command without a key, such as {@code WAIT}, to a
 * node connection of its own choosing, where it would count nothing. Blocks: runs on a
 * thread of the gateway.
 *
 * @author setnx-lock authors
 */
final class AcknowledgedCall {

	private AcknowledgedCall() {
	}

	static RedisGateway.Acknowledged<Object> run(StringRedisTemplate redis, LockScript script, LockKey key,
			List<String> keys, List<String> args, int replicas, long timeoutMillis) {
		// The connection itself, not the template's proxy of it, which hides its kind.
		return RedisCall.run(key, script.action(),
				() -> redis.execute((RedisCallback<RedisGateway.Acknowledged<Object>>) (connection) -> {
					if (WaitCommand.isCluster(connection)) {
						throw new LockAccessException(key.key(), "The replication guard cannot protect lock '"
								+ key.key() + "' on a Redis Cluster connection: Spring Data Redis sends WAIT to"
								+ " another node connection than the one that wrote the lock, where it would count"
								+ " nothing; turn the guard off (replicas 0)", null);
					}
					return pipelined(connection, script, key, keys, args, replicas, timeoutMillis);
				}, true));
	}

	private static RedisGateway.Acknowledged<Object> pipelined(RedisConnection connection, LockScript script,
			LockKey key, List<String> keys, List<String> args, int replicas, long timeoutMillis) {
		byte[][] keysAndArgs = ScriptPipeline.bytes(Stream.concat(keys.stream(), args.stream()).toList());
		List<Object> answers;
		connection.openPipeline();
		try {
			// The script's body, not its SHA1: a NOSCRIPT here would fail the pipeline
			// and leave WAIT behind it on the connection. Guarded acquisitions are the
			// rare path.
			connection.scriptingCommands()
				.eval(script.redisScript().getScriptAsString().getBytes(StandardCharsets.UTF_8),
						script.returnsList() ? ReturnType.MULTI : ReturnType.INTEGER, keys.size(), keysAndArgs);
			WaitCommand.send(connection, replicas, timeoutMillis);
		}
		finally {
			answers = closePipeline(connection);
		}
		Object reply = ScriptPipeline.decode(answers.get(0));
		Object acknowledged = answers.get(1);
		if (acknowledged instanceof Number number) {
			return new RedisGateway.Acknowledged<>(reply, number.longValue(), null);
		}
		RuntimeException failure = (acknowledged instanceof RuntimeException ex) ? ex : new LockAccessException(
				key.key(), "Unexpected answer to WAIT for lock '" + key.key() + "': " + acknowledged, null);
		return new RedisGateway.Acknowledged<>(reply, -1, failure);
	}

	/**
	 * Close the pipeline; when only {@code WAIT} failed, hand back its failure in place
	 * of its answer, so that the script's answer (an acquisition to give back) is not
	 * lost.
	 */
	private static List<Object> closePipeline(RedisConnection connection) {
		try {
			return connection.closePipeline();
		}
		catch (RedisPipelineException ex) {
			List<Object> answers = ex.getPipelineResult();
			if (answers.size() == 2 && !(answers.get(0) instanceof Throwable)) {
				return answers;
			}
			throw ex;
		}
	}

}
