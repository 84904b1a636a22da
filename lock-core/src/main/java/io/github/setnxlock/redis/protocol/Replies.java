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

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * Reads the scripts' answers, and names what they found wrong: every protocol reads its
 * answers through these, so a malformed answer is one clear {@link LockAccessException}
 * that names the lock, whatever the script. Internal API.
 *
 * @author setnx-lock authors
 */
public final class Replies {

	private Replies() {
	}

	/**
	 * Read a script's answer that is one status code.
	 * @param key the lock, named in errors
	 * @param answer the answer
	 * @param codes the codes the script gives
	 * @return the code
	 * @throws LockAccessException if the answer is not one of the codes
	 */
	public static long code(LockKey key, Object answer, long... codes) {
		if (answer instanceof Long number) {
			for (long code : codes) {
				if (code == number) {
					return code;
				}
			}
		}
		throw unexpected(key, answer);
	}

	/**
	 * Read a script's answer that is a list.
	 * @param key the lock, named in errors
	 * @param reply the answer
	 * @return the list, not empty
	 * @throws LockAccessException if the answer is not a list, or an empty one
	 */
	public static List<?> list(LockKey key, Object reply) {
		if (!(reply instanceof List<?> list) || list.isEmpty()) {
			throw unexpected(key, reply);
		}
		return list;
	}

	/**
	 * Read a whole number at a place of a list answer.
	 * @param key the lock, named in errors
	 * @param reply the answer
	 * @param index the place
	 * @return the number
	 * @throws LockAccessException if there is no number there
	 */
	public static long longAt(LockKey key, List<?> reply, int index) {
		Object element = (index < reply.size()) ? reply.get(index) : null;
		if (element instanceof Long number) {
			return number;
		}
		if (element instanceof String text) {
			try {
				return Long.parseLong(text);
			}
			catch (NumberFormatException ex) {
				throw unexpected(key, reply);
			}
		}
		throw unexpected(key, reply);
	}

	/**
	 * Read a string at a place of a list answer.
	 * @param key the lock, named in errors
	 * @param reply the answer
	 * @param index the place
	 * @return the string
	 * @throws LockAccessException if there is no string there
	 */
	public static String stringAt(LockKey key, List<?> reply, int index) {
		Object element = (index < reply.size()) ? reply.get(index) : null;
		if (element instanceof String text) {
			return text;
		}
		if (element instanceof Long number) {
			return number.toString();
		}
		throw unexpected(key, reply);
	}

	/**
	 * Say that a lock key holds another type of Redis value than a string.
	 * @param key the lock
	 * @param type the type found
	 * @return the error
	 */
	public static LockAccessException wrongType(LockKey key, String type) {
		return new LockAccessException(key.key(), "Redis key '" + key.redisKey() + "' of lock '" + key.key()
				+ "' holds a Redis " + type
				+ ", not a string, so it is not a lock: delete or rename that key, or choose another key prefix", null);
	}

	/**
	 * Say that a lock key of the timestamp protocol holds no timestamp.
	 * @param key the lock
	 * @param value the value found
	 * @return the error
	 */
	public static LockAccessException notTimestamp(LockKey key, String value) {
		return new LockAccessException(key.key(), "Redis key '" + key.redisKey() + "' of lock '" + key.key()
				+ "' holds '" + value
				+ "', which is not a Unix timestamp: a client that does not follow the timestamp protocol wrote it;"
				+ " the lock is left alone until that key is deleted or expires", null);
	}

	/**
	 * Say that a fencing counter key holds no counter.
	 * @param key the lock
	 * @param held what it holds, as the script read it
	 * @return the error
	 */
	public static LockAccessException notFenceCounter(LockKey key, String held) {
		return new LockAccessException(key.key(),
				"Fencing counter key '" + key.fenceKey() + "' of lock '" + key.key() + "' holds " + held
						+ ", not a fencing counter that a next token can follow (tokens are whole numbers below 2^53):"
						+ " a client that is not a lock registry wrote it;"
						+ " the lock cannot be taken until that key is deleted (it is kept, without an expiry it had)",
				null);
	}

	/**
	 * Say that a script answered what it never answers.
	 * @param key the lock
	 * @param reply the answer
	 * @return the error
	 */
	public static LockAccessException unexpected(LockKey key, Object reply) {
		return new LockAccessException(key.key(), "Unexpected reply from Redis for lock '" + key.key()
				+ "' (Redis key '" + key.redisKey() + "'): " + reply, null);
	}

}
