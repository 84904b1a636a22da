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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One Lua script, as {@link RedisGateway#run} sends it: its text, its SHA1, what it does
 * (for errors) and whether it answers a list or a number. What its answer means is the
 * business of the protocol that owns it. Internal API.
 *
 * @author setnx-lock authors
 */
public final class LockScript {

	private final String name;

	private final RedisScript<?> script;

	private final String action;

	private LockScript(String name, RedisScript<?> script, String action) {
		this.name = name;
		this.script = script;
		this.action = action;
	}

	/**
	 * Make a script of parts read from the classpath: each part a Lua file next to the
	 * anchor class, or, starting with {@code /}, anywhere. The script is named after its
	 * last part.
	 * @param anchor the class next to which the parts are
	 * @param action what the script does, for errors: "acquire", "release", "read"
	 * @param answersList whether it answers a list (else a number)
	 * @param parts the Lua files, in order
	 * @return the script
	 * @throws IllegalStateException if a part is missing
	 */
	public static LockScript of(Class<?> anchor, String action, boolean answersList, String... parts) {
		StringBuilder text = new StringBuilder();
		for (String part : parts) {
			try (InputStream in = anchor.getResourceAsStream(part)) {
				if (in == null) {
					throw new IllegalStateException("Lock script " + part + " is missing from the classpath");
				}
				text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
			}
			catch (IOException ex) {
				throw new IllegalStateException("Lock script " + part + " could not be read", ex);
			}
		}
		String last = parts[parts.length - 1];
		String name = last.substring(last.lastIndexOf('/') + 1).replace(".lua", "");
		RedisScript<?> script = answersList ? new DefaultRedisScript<>(text.toString(), List.class)
				: new DefaultRedisScript<>(text.toString(), Long.class);
		return new LockScript(name, script, action);
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

	String action() {
		return this.action;
	}

	boolean returnsList() {
		return List.class.isAssignableFrom(this.script.getResultType());
	}

	@Override
	public String toString() {
		return this.name;
	}

}
