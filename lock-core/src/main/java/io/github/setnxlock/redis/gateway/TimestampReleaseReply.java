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
 * The answer of {@code timestamp-release.lua}. Internal API.
 *
 * @author setnx-lock authors
 */
public enum TimestampReleaseReply {

	/** Our timestamp had expired: the key was left alone. */
	EXPIRED(-1),

	/** The key was gone, held another owner's timestamp, or no timestamp. */
	NOT_OURS(0),

	/** Deleted, and announced. */
	DELETED(1),

	/**
	 * Deleted, and announced, after a documented client that lost a {@code GETSET} race
	 * had rewritten the value.
	 */
	DELETED_AFTER_REWRITE(2);

	private final long code;

	TimestampReleaseReply(long code) {
		this.code = code;
	}

	static TimestampReleaseReply decode(LockKey key, Object answer) {
		return Replies.codeOf(key, answer, values(), (reply) -> reply.code);
	}

}
