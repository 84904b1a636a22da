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

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * One lock script and how its answer reads: what {@link RedisGateway#run} sends and
 * decodes. Internal API.
 *
 * @param <R> the type of its decoded answer
 * @author setnx-lock authors
 */
public final class LockScript<R> {

	private final RedisScript<?> script;

	private final String action;

	private final Decoder<R> decoder;

	LockScript(RedisScript<?> script, String action, Decoder<R> decoder) {
		this.script = script;
		this.action = action;
		this.decoder = decoder;
	}

	/**
	 * Return the script as Spring Data Redis runs it.
	 * @return the script
	 */
	public RedisScript<?> redisScript() {
		return this.script;
	}

	/**
	 * Return the script's SHA1, by which it is sent.
	 * @return the SHA1
	 */
	public String sha1() {
		return this.script.getSha1();
	}

	/**
	 * Return what the script does, for errors: "acquire", "release", "renew", "read".
	 * @return the action
	 */
	String action() {
		return this.action;
	}

	boolean returnsList() {
		return List.class.isAssignableFrom(this.script.getResultType());
	}

	R decode(LockKey key, Object answer) {
		return this.decoder.decode(key, answer);
	}

	/**
	 * Reads a script's answer for one lock.
	 *
	 * @param <R> the decoded type
	 */
	@FunctionalInterface
	interface Decoder<R> {

		R decode(LockKey key, Object answer);

	}

}
