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
 * The answer of {@code token-acquire.lua}, the second step of a token acquisition.
 * Internal API.
 * <p>
 * A key that is not a string is not an answer but an error: decoding throws a
 * {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @author setnx-lock authors
 */
public sealed interface TokenAcquireReply {

	/** The key was free and is ours now. */
	TokenAcquireReply ACQUIRED = new Acquired();

	/** The key was free and was left so: a call that only marks the holder. */
	TokenAcquireReply LEFT_FREE = new LeftFree();

	/**
	 * The key was free and was left so: {@link #LEFT_FREE}.
	 */
	record LeftFree() implements TokenAcquireReply {

	}

	/**
	 * The key was free and is ours now: {@link #ACQUIRED}.
	 */
	record Acquired() implements TokenAcquireReply {

	}

	/**
	 * Someone holds the key.
	 *
	 * @param holderTtlMillis the key's time to live in ms, {@code -1} without one
	 * @param marked whether the holder's token carries a waiter's mark, so that its
	 * release will be announced
	 */
	record Held(long holderTtlMillis, boolean marked) implements TokenAcquireReply {

	}

	/**
	 * Read the script's answer.
	 * @param key the lock key the script ran on, named in errors
	 * @param answer what Redis answered
	 * @return the reply
	 * @throws io.github.setnxlock.LockAccessException if the answer is not one the script
	 * gives
	 */
	static TokenAcquireReply decode(LockKey key, Object answer) {
		java.util.List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> ACQUIRED;
			case 2 -> LEFT_FREE;
			case 0 -> new Held(Replies.longAt(key, reply, 1), Replies.longAt(key, reply, 2) == 1);
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
