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

package io.github.setnxlock.faults;

import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The resource the locks protect, in a Redis of its own that no test ever faults: a
 * counter per lock key that is read and incremented under the lock, the way fencing
 * tokens are meant to be used. The store remembers the highest token any read or write
 * has shown it and refuses an operation that shows a lower one, so a holder that lost its
 * lock without knowing cannot write over the work of the holder after it. Beside it a
 * counter without fencing is incremented in the same critical sections, to show what the
 * fencing prevents.
 * <p>
 * Per lock key it keeps a hash: {@code max} (highest token seen), {@code value} (the
 * fenced counter), {@code writes} (accepted fenced writes), {@code stale} (operations
 * refused for a stale token) and {@code unfenced} (the counter without fencing).
 *
 * @author setnx-lock authors
 */
final class Witness {

	/** Register the token and answer the counter, or -1 for a stale token. */
	private static final RedisScript<Long> READ = new DefaultRedisScript<>("""
			local max = tonumber(redis.call('HGET', KEYS[1], 'max') or '0')
			local token = tonumber(ARGV[1])
			if token < max then
				redis.call('HINCRBY', KEYS[1], 'stale', 1)
				return -1
			end
			redis.call('HSET', KEYS[1], 'max', ARGV[1])
			return tonumber(redis.call('HGET', KEYS[1], 'value') or '0')
			""", Long.class);

	/** Write the counter if no higher token was seen since: 1, else 0. */
	private static final RedisScript<Long> WRITE = new DefaultRedisScript<>("""
			local max = tonumber(redis.call('HGET', KEYS[1], 'max') or '0')
			if tonumber(ARGV[1]) < max then
				redis.call('HINCRBY', KEYS[1], 'stale', 1)
				return 0
			end
			redis.call('HSET', KEYS[1], 'max', ARGV[1], 'value', ARGV[2])
			redis.call('HINCRBY', KEYS[1], 'writes', 1)
			return 1
			""", Long.class);

	private final StringRedisTemplate redis;

	Witness(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Read the fenced counter, showing the store a token.
	 * @param key the lock key
	 * @param token the holder's fencing token
	 * @return the counter, or -1 when a higher token was seen already
	 */
	long read(String key, long token) {
		return this.redis.execute(READ, List.of(hash(key)), Long.toString(token));
	}

	/**
	 * Write the fenced counter.
	 * @param key the lock key
	 * @param token the holder's fencing token
	 * @param value the new value
	 * @return whether the write was accepted
	 */
	boolean write(String key, long token, long value) {
		return this.redis.execute(WRITE, List.of(hash(key)), Long.toString(token), Long.toString(value)) == 1;
	}

	/**
	 * Read the counter that has no fencing.
	 * @param key the lock key
	 * @return its value
	 */
	long readUnfenced(String key) {
		Object value = this.redis.opsForHash().get(hash(key), "unfenced");
		return (value != null) ? Long.parseLong((String) value) : 0;
	}

	/**
	 * Write the counter that has no fencing.
	 * @param key the lock key
	 * @param value the new value
	 */
	void writeUnfenced(String key, long value) {
		this.redis.opsForHash().put(hash(key), "unfenced", Long.toString(value));
	}

	/**
	 * Return what the store holds for a key.
	 * @param key the lock key
	 * @return its counters
	 */
	Tally tally(String key) {
		List<Object> values = this.redis.opsForHash()
			.multiGet(hash(key), List.of("value", "writes", "stale", "unfenced"));
		return new Tally(number(values.get(0)), number(values.get(1)), number(values.get(2)), number(values.get(3)));
	}

	private static long number(Object value) {
		return (value != null) ? Long.parseLong((String) value) : 0;
	}

	private static String hash(String key) {
		return "witness:" + key;
	}

	/**
	 * What the store holds for one key.
	 *
	 * @param value the fenced counter
	 * @param writes the fenced writes it accepted
	 * @param stale the reads and writes it refused for a stale token
	 * @param unfenced the counter without fencing
	 */
	record Tally(long value, long writes, long stale, long unfenced) {

		/**
		 * Return how many accepted fenced writes did not show in the counter: each one
		 * wrote over another that read the same value.
		 * @return the lost updates
		 */
		long lostUpdates() {
			return this.writes - this.value;
		}

	}

}
