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
package io.github.setnxlock.redis.redlock;

import java.util.List;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Replies;

/**
 * The answer of one node to a phase of a Redlock fencing draw:
 * {@code redlock-fence-read.lua} or {@code redlock-fence-write.lua}.
 * <p>
 * A fencing counter that is not one is not an answer but an error: decoding throws a
 * {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @author setnx-lock authors
 */
sealed interface RedlockFenceReply {

	/** The lock key no longer holds the owner token: nothing was read or written. */
	RedlockFenceReply NOT_OURS = new NotOurs();

	/** The drawn token is now the node's counter. */
	RedlockFenceReply WRITTEN = new Written();

	/**
	 * The read phase's answer while the key is ours: the larger of the node's counter and
	 * its clock in microseconds.
	 *
	 * @param value the value
	 */
	record Read(long value) implements RedlockFenceReply {

	}

	/**
	 * The write phase found a counter at least as large as the drawn token, and left it.
	 *
	 * @param counter the node's counter
	 */
	record Higher(long counter) implements RedlockFenceReply {

	}

	/**
	 * The lock key no longer holds the owner token: {@link #NOT_OURS}.
	 */
	record NotOurs() implements RedlockFenceReply {

	}

	/**
	 * The drawn token was written: {@link #WRITTEN}.
	 */
	record Written() implements RedlockFenceReply {

	}

	/**
	 * Read the answer of either phase.
	 * @param key the lock key the script ran on, named in errors
	 * @param answer what Redis answered
	 * @return the reply
	 * @throws io.github.setnxlock.LockAccessException if the answer is not one the
	 * scripts give
	 */
	static RedlockFenceReply decode(LockKey key, Object answer) {
		List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 0 -> NOT_OURS;
			case 1 -> (reply.size() > 1) ? new Read(Replies.longAt(key, reply, 1)) : WRITTEN;
			case 2 -> new Higher(Replies.longAt(key, reply, 1));
			case -2 -> throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

}
