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

import io.github.setnxlock.LeasedLock;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A JVM that makes a registry and at once its first lock call, a {@code tryLock(200 ms)}
 * on a free key, as cold as in a service that has just started, and prints
 * {@code FIRST <outcome> <ms>} (the outcome is {@code true}, {@code false} or the
 * exception). {@link FirstCallTests} starts it.
 * <p>
 * Arguments: Redis port, lock key.
 *
 * @author setnx-lock authors
 */
public final class FirstCall {

	private FirstCall() {
	}

	public static void main(String[] args) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
		factory.afterPropertiesSet();
		factory.start();
		String outcome;
		long start = System.nanoTime();
		try (SetnxLockRegistry registry = new SetnxLockRegistry(new StringRedisTemplate(factory))) {
			start = System.nanoTime();
			LeasedLock lock = registry.obtain(args[1]);
			boolean acquired = lock.tryLock(Duration.ofMillis(200));
			if (acquired) {
				lock.unlock();
			}
			outcome = String.valueOf(acquired);
		}
		catch (Exception ex) {
			outcome = ex.toString().replace('\n', ' ');
		}
		System.out.println("FIRST " + outcome + " " + Duration.ofNanos(System.nanoTime() - start).toMillis());
		System.out.flush();
		factory.destroy();
	}

}
