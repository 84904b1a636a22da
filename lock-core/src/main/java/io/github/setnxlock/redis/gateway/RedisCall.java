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

import java.util.function.Supplier;

import org.springframework.core.NestedExceptionUtils;

import io.github.setnxlock.LockAccessException;

/**
 * Runs one Redis call for a lock, turning every way it can go wrong into a
 * {@link LockAccessException} that names the key and the action. Internal API.
 *
 * @author setnx-lock authors
 */
public final class RedisCall {

	private RedisCall() {
	}

	static <T> T run(LockKey key, String action, Supplier<T> call) {
		try {
			return call.get();
		}
		catch (RuntimeException ex) {
			throw failure(key, action, ex);
		}
	}

	/**
	 * Return the error for a failed call: the exception itself when it already names the
	 * lock, else a {@link LockAccessException} that does.
	 * @param key the lock
	 * @param action what the call did, such as "acquire"
	 * @param ex what the client threw
	 * @return the error to throw
	 */
	static LockAccessException failure(LockKey key, String action, RuntimeException ex) {
		if (ex instanceof LockAccessException named) {
			return named;
		}
		return new LockAccessException(key.key(), "Could not " + action + " lock '" + key.key() + "' (Redis key '"
				+ key.redisKey() + "'): " + describe(ex), ex);
	}

	/**
	 * Describe a client's failure in one line: its message and, when the message does not
	 * say it already, its root cause's. Spring Data Redis reports an error that Redis
	 * answered to a script as "Error in execution" and leaves what Redis said (a
	 * {@code NOPERM} for a command the ACL user may not run, say) to the cause, which the
	 * description must show.
	 * @param ex the failure
	 * @return the description
	 */
	public static String describe(Throwable ex) {
		String message = ex.getMessage();
		String cause = NestedExceptionUtils.getMostSpecificCause(ex).getMessage();
		if (cause == null || (message != null && message.contains(cause))) {
			return message;
		}
		return (message != null) ? message + ": " + cause : cause;
	}

	/**
	 * Whether a command failed because its answer did not come in time: the client's
	 * command timeout, or a wait for it that ran out.
	 * @param failure the failure
	 * @return whether it timed out
	 */
	public static boolean isTimeout(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.util.concurrent.TimeoutException
					|| cause instanceof org.springframework.dao.QueryTimeoutException
					|| cause.getClass().getName().equals("io.lettuce.core.RedisCommandTimeoutException")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a command failed in a way that shows Redis cannot be reached now: a
	 * connection refused, reset or closed under it, the client's command timeout, or the
	 * client's refusal to send while it is disconnected. An error Redis answered, or the
	 * caller's own wait running out, shows nothing of the kind.
	 * @param failure the failure
	 * @return whether it is evidence that Redis is unreachable
	 */
	public static boolean isUnreachable(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.io.IOException || cause instanceof java.nio.channels.ClosedChannelException
					|| cause instanceof org.springframework.dao.QueryTimeoutException
					|| cause instanceof org.springframework.data.redis.RedisConnectionFailureException) {
				return true;
			}
			String type = cause.getClass().getName();
			// By name: neither client is required on the classpath.
			if (type.equals("io.lettuce.core.RedisCommandTimeoutException")
					|| type.equals("io.lettuce.core.RedisConnectionException")
					|| type.equals("redis.clients.jedis.exceptions.JedisConnectionException")) {
				return true;
			}
			// Lettuce fails commands of a connection that closed, or that it will not
			// send
			// while disconnected, with its base exception and no type of their own.
			if (type.equals("io.lettuce.core.RedisException") && cause.getMessage() != null
					&& (cause.getMessage().contains("not connected") || cause.getMessage().contains("closed"))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a command failed because its registry was closed before it could be sent:
	 * trying again cannot help, however it was wrapped.
	 * @param failure the failure
	 * @return whether the registry is closed
	 */
	public static boolean isClosed(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof CommandRunner.ClosedException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a failed command was answered by Redis: an error reply (a refused command,
	 * a key of the wrong type, a missing right).
	 * @param failure the failure
	 * @return whether Redis answered
	 */
	static boolean isErrorReply(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
				if (type.getName().equals("io.lettuce.core.RedisCommandExecutionException")
						|| type.getName().equals("redis.clients.jedis.exceptions.JedisDataException")) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Whether a command that failed this way may still have run in Redis: everything but
	 * an error Redis answered (a refused command, a key of the wrong type), an answer
	 * that could not be read, after which Redis has run the command or refused it, and a
	 * command that was never sent (no connection could be made, or too many commands
	 * already wait for a stalled Redis).
	 * @param failure the failure
	 * @return {@code false} when Redis answered
	 */
	public static boolean mayHaveRun(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if ((cause instanceof LockAccessException && cause.getCause() == null)
					|| cause instanceof CommandRunner.RedisStalledException) {
				return false;
			}
			// By name: neither client is required on the classpath.
			for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
				if (type.getName().equals("io.lettuce.core.RedisCommandExecutionException")
						|| type.getName().equals("io.lettuce.core.RedisConnectionException")
						|| type.getName().equals("redis.clients.jedis.exceptions.JedisDataException")) {
					return false;
				}
			}
		}
		return true;
	}

}
