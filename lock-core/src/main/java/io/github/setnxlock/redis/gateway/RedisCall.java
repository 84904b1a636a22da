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
	 * say it already, its root cause's.
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

}
