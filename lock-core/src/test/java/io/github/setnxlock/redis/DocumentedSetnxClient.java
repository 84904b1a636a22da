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

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A lock client written from the Redis {@code SETNX} documentation alone ("Implementing
 * locking with SETNX" and "Handling deadlocks"), using nothing of this library: plain
 * {@code SETNX}, {@code GET}, {@code GETSET} and {@code DEL}, Unix time in seconds from
 * its own clock. It stands for the existing clients, in any language, that the timestamp
 * protocol must share keys with.
 *
 * @author setnx-lock authors
 */
final class DocumentedSetnxClient {

	private final StringRedisTemplate redis;

	DocumentedSetnxClient(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Acquire the lock, retrying until it is had.
	 * @param key the lock key, e.g. {@code lock.foo}
	 * @param timeoutSeconds the lock timeout
	 * @param maxWait how long to keep trying
	 * @return the expiry written, to be passed to {@link #release}; {@code -1} if the
	 * wait ended first
	 */
	long acquire(String key, long timeoutSeconds, Duration maxWait) throws InterruptedException {
		long giveUpAt = System.nanoTime() + maxWait.toNanos();
		while (System.nanoTime() - giveUpAt < 0) {
			long now = unixSeconds();
			long expiry = now + timeoutSeconds + 1;
			// SETNX lock.foo <current Unix time + lock timeout + 1>
			if (Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, Long.toString(expiry)))) {
				return expiry;
			}
			// GET lock.foo to check whether the lock expired
			String current = this.redis.opsForValue().get(key);
			if (current != null && Long.parseLong(current) < now) {
				// GETSET, and we own the lock only if the old value is still expired
				String old = this.redis.opsForValue().getAndSet(key, Long.toString(expiry));
				if (old != null && Long.parseLong(old) < now) {
					return expiry;
				}
			}
			// The documentation sleeps a second; a short random pause keeps the test
			// brisk.
			Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
		}
		return -1;
	}

	/**
	 * Release the lock, but only if its timeout has not passed (the documentation's
	 * important note: after the timeout, someone else may hold it).
	 * @param key the lock key
	 * @param expiry what {@link #acquire} returned
	 * @return whether {@code DEL} was sent
	 */
	boolean release(String key, long expiry) {
		if (unixSeconds() < expiry) {
			this.redis.delete(key);
			return true;
		}
		return false;
	}

	static long unixSeconds() {
		return System.currentTimeMillis() / 1000;
	}

}
