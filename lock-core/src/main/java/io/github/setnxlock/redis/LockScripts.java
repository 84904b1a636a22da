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
package io.github.setnxlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of both protocols, one place for all of them. Each script's file says
 * why it has to run atomically. Scripts are sent by SHA1 ({@code EVALSHA}); Spring Data
 * Redis falls back to {@code EVAL} on {@code NOSCRIPT}, which reloads them into a Redis
 * that restarted. Nothing here talks to Redis: loading happens on first use. Every lock
 * script starts with {@code read.lua}, the shared reads.
 *
 * @author setnx-lock authors
 */
final class LockScripts {

	static final RedisScript<List> TOKEN_ACQUIRE = listScript("read.lua", "fence.lua", "token-acquire.lua");

	static final RedisScript<Long> TOKEN_RELEASE = longScript("read.lua", "token-release.lua");

	static final RedisScript<List> TIMESTAMP_ACQUIRE = listScript("read.lua", "fence.lua", "timestamp-clock.lua",
			"timestamp-acquire.lua");

	static final RedisScript<Long> TIMESTAMP_RELEASE = longScript("read.lua", "timestamp-clock.lua",
			"timestamp-release.lua");

	static final RedisScript<Long> TOKEN_KEEP = longScript("read.lua", "token-keep.lua");

	static final RedisScript<List> TIMESTAMP_KEEP = listScript("read.lua", "timestamp-clock.lua", "timestamp-keep.lua");

	static final RedisScript<List> FORCE_RELEASE = listScript("read.lua", "fence.lua", "force-release.lua");

	static final RedisScript<List> TIMESTAMP_HELD = listScript("read.lua", "timestamp-clock.lua", "timestamp-held.lua");

	/**
	 * Asked once per registry on a Lettuce connection, so not among {@link #ALL}: a
	 * registry that never asks does not need it loaded.
	 */
	static final RedisScript<Long> NATIVE_RELEASE_CHECK = longScript("native-release-check.lua");

	/**
	 * Every script, for loading them all at once.
	 */
	static final List<RedisScript<?>> ALL = List.of(TOKEN_ACQUIRE, TOKEN_RELEASE, TOKEN_KEEP, TIMESTAMP_ACQUIRE,
			TIMESTAMP_RELEASE, TIMESTAMP_KEEP, TIMESTAMP_HELD, FORCE_RELEASE);

	private LockScripts() {
	}

	private static RedisScript<List> listScript(String... parts) {
		return new DefaultRedisScript<>(load(parts), List.class);
	}

	private static RedisScript<Long> longScript(String... parts) {
		return new DefaultRedisScript<>(load(parts), Long.class);
	}

	private static String load(String... parts) {
		StringBuilder text = new StringBuilder();
		for (String part : parts) {
			try (InputStream in = LockScripts.class.getResourceAsStream(part)) {
				if (in == null) {
					throw new IllegalStateException("Lock script " + part + " is missing from the classpath");
				}
				text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
			}
			catch (IOException ex) {
				throw new IllegalStateException("Lock script " + part + " could not be read", ex);
			}
		}
		return text.toString();
	}

}
