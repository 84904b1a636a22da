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
package io.github.setnxlock.redis.operator;

import java.util.List;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.protocol.Replies;
import io.github.setnxlock.redis.protocol.ScriptProtocol;

/**
 * The answer of {@code force-release.lua}, {@link #SCRIPT}.
 * <p>
 * A fencing counter that is not one is an error: decoding throws a
 * {@link io.github.setnxlock.LockAccessException} naming it.
 *
 * @param deleted whether a lock key was there to delete
 * @param nextFencingToken the token drawn past the holder's
 * @author setnx-lock authors
 */
record ForceReleaseReply(boolean deleted, long nextFencingToken) {

	/** An operator's release, past the holder's fencing token, under any protocol. */
	static final LockScript SCRIPT = LockScript.of(ForceReleaseReply.class, "force-release", true, ScriptProtocol.READ,
			ScriptProtocol.FENCE, "force-release.lua");

	static ForceReleaseReply decode(LockKey key, Object answer) {
		List<?> reply = Replies.list(key, answer);
		long status = Replies.longAt(key, reply, 0);
		if (status == -1) {
			throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
		}
		if (status != 0 && status != 1) {
			throw Replies.unexpected(key, answer);
		}
		return new ForceReleaseReply(status == 1, Replies.longAt(key, reply, 1));
	}

}
