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

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;

import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import io.github.setnxlock.LockAccessException;

/**
 * Sends {@code WAIT} on a Spring Data Redis connection and reads its answer, the number
 * of replicas that acknowledged the connection's writes.
 * <p>
 * Spring Data Redis has no method for {@code WAIT}, and its generic
 * {@link RedisConnection#execute(String, byte[]...)} reads the answer of a command it
 * does not know as bytes, which Lettuce cannot do with an integer. So on a Lettuce
 * connection the command goes through Lettuce's own form of {@code execute} with an
 * integer output, on the same connection; other drivers answer the generic form with a
 * number. Lettuce is an optional dependency: its classes are touched only when it is on
 * the classpath.
 *
 * @author setnx-lock authors
 */
final class WaitCommand {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			WaitCommand.class.getClassLoader());

	private WaitCommand() {
	}

	/**
	 * Run a lock script and then {@code WAIT} on the connection that ran it: both in one
	 * {@link SessionCallback}, which binds one Spring Data Redis connection to the
	 * thread, so both commands use one Redis connection (Lettuce's shared native
	 * connection, or a dedicated one when sharing is off). Refused on a Redis Cluster
	 * connection, where Spring Data Redis sends a command without a key, such as
	 * {@code WAIT}, to a node connection of its own choosing: there it would count
	 * nothing. Blocks: run on a thread of the gateway.
	 */
	static <R> RedisGateway.Acknowledged<R> runAcknowledged(StringRedisTemplate redis, LockScript<R> script,
			LockKey key, List<String> keys, List<String> args, int replicas, long timeoutMillis) {
		return RedisCall.run(key, script.action(),
				() -> redis.execute(new SessionCallback<RedisGateway.Acknowledged<R>>() {

					@Override
					public <K, V> RedisGateway.Acknowledged<R> execute(RedisOperations<K, V> operations) {
						// The connections themselves, not the template's proxies of them,
						// which
						// hide their kind; the session keeps them open.
						if (Boolean.TRUE.equals(redis.execute((RedisCallback<Boolean>) WaitCommand::isCluster, true))) {
							throw new LockAccessException(key.key(), "The replication guard cannot protect lock '"
									+ key.key()
									+ "' on a Redis Cluster connection: Spring Data Redis sends WAIT to another node"
									+ " connection than the one that wrote the lock, where it would count nothing;"
									+ " turn the guard off (replicas 0)", null);
						}
						R reply = script.decode(key, RedisCall.run(key, script.action(),
								() -> redis.execute(script.redisScript(), keys, args.toArray())));
						try {
							Object answer = redis.execute(
									(RedisCallback<Object>) (connection) -> send(connection, replicas, timeoutMillis),
									true);
							if (!(answer instanceof Number number)) {
								throw new LockAccessException(key.key(),
										"Unexpected answer to WAIT for lock '" + key.key() + "': " + answer, null);
							}
							return new RedisGateway.Acknowledged<>(reply, number.longValue(), null);
						}
						catch (RuntimeException ex) {
							return new RedisGateway.Acknowledged<>(reply, -1, ex);
						}
					}

				}));
	}

	/**
	 * Send {@code WAIT replicas timeout}.
	 * @param connection the connection whose writes to wait for, exposed as it is (not
	 * behind the template's close-suppressing proxy, which hides what it is)
	 * @param replicas how many replicas
	 * @param timeoutMillis how long at most
	 * @return the answer, a {@link Long} from the drivers we know
	 */
	static Object send(RedisConnection connection, int replicas, long timeoutMillis) {
		byte[][] arguments = { bytes(replicas), bytes(timeoutMillis) };
		RedisConnection target = unwrap(connection);
		if (LETTUCE_PRESENT && Lettuce.isLettuce(target)) {
			return Lettuce.send(target, arguments);
		}
		return connection.execute("WAIT", arguments);
	}

	/**
	 * Return whether the connection is a Redis Cluster connection, looking through Spring
	 * Data Redis's decorators.
	 * @param connection the connection
	 * @return whether it talks to a Redis Cluster
	 */
	static boolean isCluster(RedisConnection connection) {
		return unwrap(connection) instanceof RedisClusterConnection;
	}

	private static RedisConnection unwrap(RedisConnection connection) {
		RedisConnection target = connection;
		while (target instanceof DecoratedRedisConnection decorated) {
			target = decorated.getDelegate();
		}
		return target;
	}

	private static byte[] bytes(long number) {
		return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * The Lettuce path, in a class of its own so that nothing loads Lettuce's classes
	 * when Lettuce is not there.
	 */
	private static final class Lettuce {

		static boolean isLettuce(RedisConnection connection) {
			return connection instanceof LettuceConnection;
		}

		static Object send(RedisConnection connection, byte[][] arguments) {
			return ((LettuceConnection) connection).execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE),
					arguments);
		}

	}

}
