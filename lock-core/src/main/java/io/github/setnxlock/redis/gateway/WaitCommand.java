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

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;

import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.util.ClassUtils;

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
