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

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * The Redis keys of one lock: the lock key, exactly {@code prefix + key} as the
 * documented pattern names it, and the fencing counter key, named so that it hashes to
 * the same Redis Cluster slot (the acquire scripts write both).
 * <p>
 * When the lock key has a hash tag of its own, the counter key appends {@code :fence} and
 * keeps that tag. Otherwise the lock key becomes the tag: {@code {lock:foo}:fence}. A key
 * that contains <code>}</code> but no tag cannot be a tag itself; its counter key takes a
 * short tag searched for the same slot. Internal API.
 *
 * @param key the key as the application named it
 * @param redisKey the lock key in Redis
 * @param fenceKey the fencing counter key in Redis
 * @author setnx-lock authors
 */
public record LockKey(String key, String redisKey, String fenceKey) {

	private static final String FENCE_SUFFIX = ":fence";

	private static final String OWNER_SUFFIX = ":owner";

	/**
	 * Return the keys of a lock.
	 * @param prefix the registry's key prefix
	 * @param key the key as the application named it
	 * @return the keys
	 */
	public static LockKey of(String prefix, String key) {
		String redisKey = prefix + key;
		return new LockKey(key, redisKey, fenceKeyFor(redisKey));
	}

	/**
	 * Check a lock key as an application names it.
	 * @param key the key
	 * @return the key
	 * @throws IllegalArgumentException if it is {@code null}, blank, or not well-formed
	 * Unicode
	 */
	public static String checkKey(String key) {
		if (key == null) {
			throw new IllegalArgumentException("Lock key must not be null");
		}
		if (key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be empty or blank, but was '" + key + "'");
		}
		return checkWellFormed("Lock key", key);
	}

	/**
	 * Reject text with a lone surrogate: Redis keys are written in UTF-8, where it turns
	 * into {@code ?}, so two different keys would name one Redis key, and its release
	 * messages would name neither.
	 * @param name what the text is, for the message
	 * @param text the text
	 * @return the text
	 * @throws IllegalArgumentException if it is not well-formed UTF-16
	 */
	public static String checkWellFormed(String name, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new IllegalArgumentException(
						name + " must be well-formed Unicode, but has a lone surrogate at index " + i
								+ ", which Redis would store as '?'");
			}
		}
		return text;
	}

	/**
	 * Return the fencing counter's key of a lock key, in the lock key's slot.
	 * @param redisKey the lock's key in Redis, with the registry's prefix
	 * @return the key of its fencing counter
	 */
	public static String fenceKeyFor(String redisKey) {
		return companionKey(redisKey, FENCE_SUFFIX);
	}

	/**
	 * Return the owner key of the timestamp protocol: the owner token and value of the
	 * acquisition that last wrote the lock key, so that an acquisition whose outcome the
	 * client never learned can be undone (see {@code timestamp-abandon.lua}). Same slot
	 * as the lock key, named as the fencing counter key is.
	 * @return the owner key
	 */
	public String ownerKey() {
		if (hasHashTag(this.redisKey) || this.redisKey.indexOf('}') < 0) {
			return companionKey(this.redisKey, OWNER_SUFFIX);
		}
		// The fencing counter key's tag, searched once already: {tag}:fence:<lock key>.
		return this.fenceKey.substring(0, this.fenceKey.indexOf('}') + 1) + OWNER_SUFFIX + ":" + this.redisKey;
	}

	private static String companionKey(String redisKey, String suffix) {
		if (hasHashTag(redisKey)) {
			return redisKey + suffix;
		}
		if (redisKey.indexOf('}') < 0) {
			return "{" + redisKey + "}" + suffix;
		}
		return "{" + tagForSlot(ClusterSlotHashUtil.calculateSlot(redisKey)) + "}" + suffix + ":" + redisKey;
	}

	/**
	 * Return whether a Redis key is named as the companion (fencing counter, owner key)
	 * of a lock key with a hash tag of its own: the only companions that begin with the
	 * lock key, and so with the registry's prefix.
	 * @param redisKey a key in Redis
	 * @return whether it is named as such a companion
	 */
	public static boolean isCompanion(String redisKey) {
		for (String suffix : new String[] { FENCE_SUFFIX, OWNER_SUFFIX }) {
			if (redisKey.endsWith(suffix) && hasHashTag(redisKey.substring(0, redisKey.length() - suffix.length()))) {
				return true;
			}
		}
		return false;
	}

	private static boolean hasHashTag(String key) {
		int open = key.indexOf('{');
		if (open < 0) {
			return false;
		}
		int close = key.indexOf('}', open + 1);
		return close > open + 1;
	}

	private static String tagForSlot(int slot) {
		// Base-36 numbers cover all 16384 slots within a few tens of thousands of tries.
		for (int candidate = 0;; candidate++) {
			String tag = Integer.toString(candidate, Character.MAX_RADIX);
			if (ClusterSlotHashUtil.calculateSlot(tag) == slot) {
				return tag;
			}
		}
	}

}
