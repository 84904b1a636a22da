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

package io.github.setnxlock.sample;

import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The stock levels that {@link StockService} protects with a lock, and the last line of
 * that protection: every write carries the writer's fencing token, and a write whose
 * token is lower than one already seen is refused.
 * <p>
 * A lock alone cannot stop a holder that paused (a long GC, a stalled network) until its
 * lease ended, and then writes while a newer holder is at work. The newer holder's token
 * is higher, so the store itself can tell the stale write apart. Here the store is a
 * Redis hash per SKU ({@code sample:stock:<sku>}, fields {@code quantity} and
 * {@code fence}); a database would keep the fence in a column and check it in the
 * {@code UPDATE}'s {@code WHERE} clause.
 *
 * @author setnx-lock authors
 */
@Component
public class StockLedger {

	private static final String KEY_PREFIX = "sample:stock:";

	// Check and write in one script: a check followed by a separate write would let a
	// stale writer slip in between. Tokens are compared as decimal strings (length first)
	// because a Lua number is a double and loses precision above 2^53.
	private static final RedisScript<Long> FENCED_WRITE = RedisScript.of("""
			local fence = redis.call('HGET', KEYS[1], 'fence') or '0'
			local token = ARGV[1]
			if #token < #fence or (#token == #fence and token < fence) then
				return 0
			end
			redis.call('HSET', KEYS[1], 'quantity', ARGV[2], 'fence', token)
			return 1
			""", Long.class);

	private final StringRedisTemplate redis;

	StockLedger(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Return a SKU's stock level and the highest token that wrote it.
	 * @param sku the SKU
	 * @return the level; zero for a SKU never stocked
	 */
	public Level level(String sku) {
		List<Object> values = this.redis.opsForHash().multiGet(KEY_PREFIX + sku, List.of("quantity", "fence"));
		return new Level(sku, parse(values.get(0)), parse(values.get(1)));
	}

	/**
	 * Write a SKU's stock level, unless a writer with a higher fencing token has written
	 * it already. Equal tokens are let through: one holder may write more than once.
	 * @param sku the SKU
	 * @param quantity the new level
	 * @param fencingToken the writer's
	 * {@link io.github.setnxlock.LeasedLock#fencingToken()}
	 * @return whether the level was written
	 */
	public boolean write(String sku, long quantity, long fencingToken) {
		Long written = this.redis.execute(FENCED_WRITE, List.of(KEY_PREFIX + sku), Long.toString(fencingToken),
				Long.toString(quantity));
		return written != null && written == 1L;
	}

	private static long parse(Object value) {
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	/**
	 * A SKU's stock level.
	 *
	 * @param sku the SKU
	 * @param quantity how many are in stock
	 * @param fence the highest fencing token that wrote the level; zero before any write
	 */
	public record Level(String sku, long quantity, long fence) {

	}

}
