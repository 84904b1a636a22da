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
 * The answer of {@code timestamp-abandon.lua}. Internal API.
 *
 * @author setnx-lock authors
 */
public enum TimestampAbandonReply {

	/**
	 * The acquisition had not written the key, or the key no longer holds what it wrote.
	 */
	NOTHING_TO_UNDO(0),

	/** The key the acquisition wrote was deleted, and the release announced. */
	DELETED(1);

	private final long code;

	TimestampAbandonReply(long code) {
		this.code = code;
	}

	static TimestampAbandonReply decode(LockKey key, Object answer) {
		return Replies.codeOf(key, answer, values(), (reply) -> reply.code);
	}

}
