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
import java.util.function.ToLongFunction;

import io.github.setnxlock.LockAccessException;

/**
 * Reads the scripts' answers, and names what they found wrong: every reply type decodes
 * through these, so a malformed answer is one clear {@link LockAccessException} that
 * names the lock, whatever the script.
 *
 * @author setnx-lock authors
 */
final class Replies {

	private Replies() {
	}

	/**
	 * Decode a script's single status code into one of the reply's constants.
	 */
	static <E> E codeOf(LockKey key, Object answer, E[] replies, ToLongFunction<E> code) {
		if (answer instanceof Long number) {
			for (E reply : replies) {
				if (code.applyAsLong(reply) == number) {
					return reply;
				}
			}
		}
		throw unexpected(key, answer);
	}

	static List<?> list(LockKey key, Object reply) {
		if (!(reply instanceof List<?> list) || list.isEmpty()) {
			throw unexpected(key, reply);
		}
		return list;
	}

	static long longAt(LockKey key, List<?> reply, int index) {
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

	static String stringAt(LockKey key, List<?> reply, int index) {
		Object element = (index < reply.size()) ? reply.get(index) : null;
		if (element instanceof String text) {
			return text;
		}
		if (element instanceof Long number) {
			return number.toString();
		}
		throw unexpected(key, reply);
	}

	static LockAccessException wrongType(LockKey key, String type) {
		return new LockAccessException(key.key(), "Redis key '" + key.redisKey() + "' of lock '" + key.key()
				+ "' holds a Redis " + type
				+ ", not a string, so it is not a lock: delete or rename that key, or choose another key prefix", null);
	}

	static LockAccessException notTimestamp(LockKey key, String value) {
		return new LockAccessException(key.key(), "Redis key '" + key.redisKey() + "' of lock '" + key.key()
				+ "' holds '" + value
				+ "', which is not a Unix timestamp: a client that does not follow the timestamp protocol wrote it;"
				+ " the lock is left alone until that key is deleted or expires", null);
	}

	static LockAccessException notFenceCounter(LockKey key, String held) {
		return new LockAccessException(key.key(),
				"Fencing counter key '" + key.fenceKey() + "' of lock '" + key.key() + "' holds " + held
						+ ", not a fencing counter that a next token can follow (tokens are whole numbers below 2^53):"
						+ " a client that is not a lock registry wrote it;"
						+ " the lock cannot be taken until that key is deleted (it is kept, without an expiry it had)",
				null);
	}

	static LockAccessException unexpected(LockKey key, Object reply) {
		return new LockAccessException(key.key(), "Unexpected reply from Redis for lock '" + key.key()
				+ "' (Redis key '" + key.redisKey() + "'): " + reply, null);
	}

}
