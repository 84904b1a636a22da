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
package io.github.setnxlock.redis.engine;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;

/**
 * Ends a wait in a key's line once Redis is known to be unreachable (see
 * {@link io.github.setnxlock.redis.gateway.Reachability}): the slot knows no key name, so
 * the acquisition turns it into the {@link LockAccessException} that names the lock.
 *
 * @author setnx-lock authors
 */
final class UnreachableRedis extends RuntimeException {

	private static final long serialVersionUID = 1L;

	UnreachableRedis(Throwable evidence) {
		super("Redis is unreachable", evidence, false, false);
	}

	/**
	 * Return the exception that tells the caller.
	 * @param key the lock
	 * @return the exception
	 */
	LockAccessException forKey(LockKey key) {
		return new LockAccessException(key.key(),
				"Could not acquire lock '" + key.key() + "' (Redis key '" + key.redisKey() + "'): "
						+ because(getCause())
						+ "; the call did not wait for its turn behind another call of this application",
				getCause());
	}

	/**
	 * Say why Redis counts as unreachable.
	 * @param evidence the failure that showed it
	 * @return the reason, for a message
	 */
	static String because(Throwable evidence) {
		return "Redis counts as unreachable since a call failed (" + RedisCall.describe(evidence)
				+ ") and nothing has answered since";
	}

}
