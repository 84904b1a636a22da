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
 * The answer of {@code timestamp-held.lua}. Internal API.
 * <p>
 * A key that is not a string or a value that is not a timestamp is an error: decoding
 * throws a {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @author setnx-lock authors
 */
public enum TimestampHeldReply {

	/** The key is free, or its timestamp expired. */
	FREE,

	/** The key holds a timestamp that has not expired. */
	HELD;

	static TimestampHeldReply decode(LockKey key, Object answer) {
		java.util.List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> HELD;
			case 0 -> FREE;
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			case -2 -> throw Replies.notTimestamp(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
