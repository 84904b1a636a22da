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
 * The answer of {@code timestamp-acquire.lua}. Internal API.
 * <p>
 * A key that is not a string, a value that is not a timestamp, or a fencing counter that
 * is not one, is not an answer but an error: decoding throws a
 * {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @author setnx-lock authors
 */
public sealed interface TimestampAcquireReply {

	/**
	 * The key is ours now.
	 *
	 * @param fencingToken the token drawn for this hold
	 * @param value the timestamp written
	 * @param validityMillis how long it is valid, as the server counted
	 * @param previousValue the expired timestamp taken over, or {@code null} when the key
	 * was free
	 */
	record Acquired(long fencingToken, String value, long validityMillis,
			String previousValue) implements TimestampAcquireReply {

	}

	/**
	 * Someone holds the key.
	 *
	 * @param holderTtlMillis ms until the holder's timestamp expires
	 * @param announces whether the holder is a registry's, whose release is announced
	 */
	record Held(long holderTtlMillis, boolean announces) implements TimestampAcquireReply {

	}

	/**
	 * Read the script's answer.
	 * @param key the lock key the script ran on, named in errors
	 * @param answer what Redis answered
	 * @return the reply
	 * @throws io.github.setnxlock.LockAccessException if the answer is not one the script
	 * gives
	 */
	static TimestampAcquireReply decode(LockKey key, Object answer) {
		java.util.List<?> reply = Replies.list(key, answer);
		long status = Replies.longAt(key, reply, 0);
		if (status == 1 || status == 2) {
			return new Acquired(Replies.longAt(key, reply, 1), Replies.stringAt(key, reply, 2),
					Replies.longAt(key, reply, 3), (status == 2) ? Replies.stringAt(key, reply, 4) : null);
		}
		return switch ((int) status) {
			case 0 -> new Held(Replies.longAt(key, reply, 1), Replies.longAt(key, reply, 2) == 1);
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			case -2 -> throw Replies.notTimestamp(key, Replies.stringAt(key, reply, 1));
			case -3 -> throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
