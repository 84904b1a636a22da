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
 * The answer of {@code token-release.lua}, or of the server's own compare-and-delete that
 * stands in for it. Internal API.
 *
 * @author setnx-lock authors
 */
public enum TokenReleaseReply {

	/** The key no longer held our token. */
	NOT_OURS(0),

	/** Deleted; nobody had marked it, so nothing was announced. */
	DELETED(1),

	/** Deleted and announced on the release channel (a waiter had marked it). */
	DELETED_AND_ANNOUNCED(2);

	private final long code;

	TokenReleaseReply(long code) {
		this.code = code;
	}

	static TokenReleaseReply decode(LockKey key, Object answer) {
		return Replies.codeOf(key, answer, values(), (reply) -> reply.code);
	}

}
