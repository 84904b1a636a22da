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
 * The Lua scripts of both protocols, one place for all of them, each with the type its
 * answer decodes to. Each script's file says why it has to run atomically. Scripts are
 * sent by SHA1 ({@code EVALSHA}); Spring Data Redis falls back to {@code EVAL} on
 * {@code NOSCRIPT}, which reloads them into a Redis that restarted. Nothing here talks to
 * Redis: loading happens on first use. Every lock script starts with {@code read.lua},
 * the shared reads. Internal API.
 *
 * @author setnx-lock authors
 */
public final class LockScripts {

	/**
	 * Token protocol, after a plain {@code SET NX PX} failed: {@code SET NX PX} again, or
	 * the waiter's mark.
	 */
	public static final LockScript<TokenAcquireReply> TOKEN_ACQUIRE = new LockScript<>(
			listScript("read.lua", "token-acquire.lua"), "acquire", TokenAcquireReply::decode);

	/**
	 * Token protocol: the fencing draw of a hold, while the key is still the holder's.
	 */
	public static final LockScript<TokenFenceReply> TOKEN_FENCE = new LockScript<>(
			listScript("read.lua", "fence.lua", "token-fence.lua"), "draw the fencing token of",
			TokenFenceReply::decode);

	/** Token protocol: compare-and-delete, announced when marked. */
	public static final LockScript<TokenReleaseReply> TOKEN_RELEASE = new LockScript<>(
			longScript("read.lua", "token-release.lua"), "release", TokenReleaseReply::decode);

	/**
	 * Token protocol: compare-and-extend, for renewals and releases that keep the key.
	 */
	public static final LockScript<TokenKeepReply> TOKEN_KEEP = new LockScript<>(
			longScript("read.lua", "token-keep.lua"), "release", TokenKeepReply::decode);

	/**
	 * Timestamp protocol: {@code SETNX} with the expire-takeover and the fencing draw.
	 */
	public static final LockScript<TimestampAcquireReply> TIMESTAMP_ACQUIRE = new LockScript<>(
			listScript("read.lua", "fence.lua", "timestamp-clock.lua", "timestamp-acquire.lua"), "acquire",
			TimestampAcquireReply::decode);

	/** Timestamp protocol: compare-and-delete while our timestamp is valid. */
	public static final LockScript<TimestampReleaseReply> TIMESTAMP_RELEASE = new LockScript<>(
			longScript("read.lua", "timestamp-clock.lua", "timestamp-release.lua"), "release",
			TimestampReleaseReply::decode);

	/** Timestamp protocol: compare-and-extend. */
	public static final LockScript<TimestampKeepReply> TIMESTAMP_KEEP = new LockScript<>(
			listScript("read.lua", "timestamp-clock.lua", "timestamp-keep.lua"), "release", TimestampKeepReply::decode);

	/** Timestamp protocol: undo an acquisition whose answer never came. */
	public static final LockScript<TimestampAbandonReply> TIMESTAMP_ABANDON = new LockScript<>(
			longScript("read.lua", "timestamp-abandon.lua"), "release", TimestampAbandonReply::decode);

	/** Timestamp protocol: whether a valid timestamp is held. */
	public static final LockScript<TimestampHeldReply> TIMESTAMP_HELD = new LockScript<>(
			listScript("read.lua", "timestamp-clock.lua", "timestamp-held.lua"), "read", TimestampHeldReply::decode);

	/**
	 * Redlock: the read phase of a fencing draw on one node, while the key is the
	 * holder's.
	 */
	public static final LockScript<RedlockFenceReply> REDLOCK_FENCE_READ = new LockScript<>(
			listScript("read.lua", "redlock-counter.lua", "redlock-fence-read.lua"), "draw the fencing token of",
			RedlockFenceReply::decode);

	/**
	 * Redlock: the write phase of a fencing draw on one node, while the key is the
	 * holder's and only if it raises the counter.
	 */
	public static final LockScript<RedlockFenceReply> REDLOCK_FENCE_WRITE = new LockScript<>(
			listScript("read.lua", "redlock-counter.lua", "redlock-fence-write.lua"), "draw the fencing token of",
			RedlockFenceReply::decode);

	/** Both protocols: an operator's release, past the holder's fencing token. */
	public static final LockScript<ForceReleaseReply> FORCE_RELEASE = new LockScript<>(
			listScript("read.lua", "fence.lua", "force-release.lua"), "force-release", ForceReleaseReply::decode);

	/**
	 * Whether the server has a compare-and-delete this user may send: {@code 1} for
	 * {@code DELIFEQ}, {@code 2} for {@code DELEX}, {@code 0} for neither.
	 */
	static final LockScript<Long> NATIVE_RELEASE_CHECK = new LockScript<>(longScript("native-release-check.lua"),
			"release", (key, answer) -> Replies.codeOf(key, answer, new Long[] { 0L, 1L, 2L }, Long::longValue));

	/** The scripts of both protocols, which the health check loads. */
	public static final List<LockScript<?>> ALL = List.of(TOKEN_ACQUIRE, TOKEN_FENCE, TOKEN_RELEASE, TOKEN_KEEP,
			TIMESTAMP_ACQUIRE, TIMESTAMP_RELEASE, TIMESTAMP_KEEP, TIMESTAMP_ABANDON, TIMESTAMP_HELD, REDLOCK_FENCE_READ,
			REDLOCK_FENCE_WRITE, FORCE_RELEASE);

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
