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
 * The answer of {@code token-fence.lua}, the draw of a hold's fencing token. Internal
 * API.
 * <p>
 * A fencing counter that is not one is not an answer but an error: decoding throws a
 * {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @author setnx-lock authors
 */
public sealed interface TokenFenceReply {

	/** The lock key no longer holds the owner token: nothing was drawn. */
	TokenFenceReply NOT_OURS = new NotOurs();

	/**
	 * The token was drawn.
	 *
	 * @param fencingToken the token
	 */
	record Drawn(long fencingToken) implements TokenFenceReply {

	}

	/**
	 * The lock key no longer holds the owner token: {@link #NOT_OURS}.
	 */
	record NotOurs() implements TokenFenceReply {

	}

	/**
	 * Read the script's answer.
	 * @param key the lock key the script ran on, named in errors
	 * @param answer what Redis answered
	 * @return the reply
	 * @throws io.github.setnxlock.LockAccessException if the answer is not one the script
	 * gives
	 */
	static TokenFenceReply decode(LockKey key, Object answer) {
		java.util.List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> new Drawn(Replies.longAt(key, reply, 1));
			case 0 -> NOT_OURS;
			case -2 -> throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
