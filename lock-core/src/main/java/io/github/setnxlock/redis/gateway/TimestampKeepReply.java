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

/**
 * The answer of {@code timestamp-keep.lua}: a renewal, or a release that keeps the key.
 * Internal API.
 *
 * @author setnx-lock authors
 */
public sealed interface TimestampKeepReply {

	/**
	 * A new timestamp was written.
	 *
	 * @param value the timestamp
	 * @param validityMillis how long it is valid, as the server counted
	 * @param announced whether the release that keeps the key was announced
	 */
	record Extended(String value, long validityMillis, boolean announced) implements TimestampKeepReply {

	}

	/**
	 * The key was not extended.
	 *
	 * @param expired {@code true} when our timestamp had expired, {@code false} when the
	 * key was gone or held another owner's value
	 */
	record NotExtended(boolean expired) implements TimestampKeepReply {

	}

	/**
	 * Read the script's answer.
	 * @param key the lock key the script ran on, named in errors
	 * @param answer what Redis answered
	 * @return the reply
	 * @throws io.github.setnxlock.LockAccessException if the answer is not one the script
	 * gives
	 */
	static TimestampKeepReply decode(LockKey key, Object answer) {
		java.util.List<?> reply = Replies.list(key, answer);
		long status = Replies.longAt(key, reply, 0);
		if (status == 1 || status == 2) {
			return new Extended(Replies.stringAt(key, reply, 1), Replies.longAt(key, reply, 2), status == 2);
		}
		if (status == 0 || status == -1) {
			return new NotExtended(status == -1);
		}
		throw Replies.unexpected(key, answer);
	}

}
