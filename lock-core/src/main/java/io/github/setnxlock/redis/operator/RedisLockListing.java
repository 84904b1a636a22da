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

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * Lists the locks held in Redis under a key prefix, whoever holds them: the key names
 * come from {@code SCAN ... MATCH <prefix>*} on every primary (every node under Redlock),
 * the keys' companions are left out, and each lock is then read as
 * {@link LockOperations#inspect(String)} reads it. Without a key prefix locks cannot be
 * told from the database's other keys, so nothing is listed. A bounded read for
 * operators, never on the lock path: it costs a scan and a read per lock.
 *
 * @author setnx-lock authors
 */
final class RedisLockListing {

	/** A lock key and at most two companions (fencing counter, owner key). */
	private static final long KEYS_PER_LOCK = 3;

	private final List<RedisGateway> gateways;

	private final String keyPrefix;

	private final Function<String, LockState> inspect;

	RedisLockListing(List<RedisGateway> gateways, String keyPrefix, Function<String, LockState> inspect) {
		this.gateways = gateways;
		this.keyPrefix = keyPrefix;
		this.inspect = inspect;
	}

	RedisLocks list(int limit) {
		if (limit < 1) {
			throw new IllegalArgumentException("The limit must be at least 1, but was " + limit);
		}
		if (this.keyPrefix.isEmpty()) {
			return new RedisLocks(List.of(), false,
					"the registry has no key prefix, so its locks cannot be told from other keys");
		}
		TreeSet<String> keys = new TreeSet<>();
		boolean complete = true;
		List<String> problems = new ArrayList<>();
		for (RedisGateway gateway : this.gateways) {
			// Under Redlock a lock lives on a majority, so the other nodes still show it;
			// the
			// list then says it may be incomplete, and why.
			try {
				// A hash-tagged lock key's companions (counter, owner key) share its
				// prefix:
				// room for them, so that a full page of locks is found when there is one.
				int scanned = (int) Math.min(Integer.MAX_VALUE, KEYS_PER_LOCK * limit + 1);
				List<String> found = LockEngine.awaitUninterrupted(gateway.scan(pattern(), scanned));
				complete &= found.size() < scanned;
				for (String redisKey : found) {
					if (!LockKey.isCompanion(redisKey)) {
						keys.add(redisKey.substring(this.keyPrefix.length()));
					}
				}
			}
			catch (RuntimeException ex) {
				problems.add("a Redis could not be scanned: " + RedisCall.describe(ex));
			}
		}
		if (problems.size() == this.gateways.size()) {
			return new RedisLocks(List.of(), false, String.join("; ", problems));
		}
		List<LockState> locks = new ArrayList<>();
		int unreadable = 0;
		for (String key : keys) {
			if (locks.size() == limit) {
				complete = false;
				break;
			}
			if (key.isBlank()) {
				continue;
			}
			LockState state;
			try {
				state = this.inspect.apply(key);
			}
			catch (RuntimeException ex) {
				unreadable++;
				continue;
			}
			if (state.held() && "string".equals(state.type())) {
				locks.add(state);
			}
		}
		if (unreadable > 0) {
			problems.add(unreadable + " lock(s) could not be read");
		}
		if (!problems.isEmpty()) {
			return new RedisLocks(locks, false, String.join("; ", problems));
		}
		return new RedisLocks(locks, complete, null);
	}

	/**
	 * Return the SCAN pattern of the keys under the prefix, the prefix's glob characters
	 * escaped.
	 */
	private String pattern() {
		StringBuilder pattern = new StringBuilder();
		for (char c : this.keyPrefix.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append('*').toString();
	}

}
