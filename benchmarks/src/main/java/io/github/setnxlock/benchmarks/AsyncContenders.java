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
package io.github.setnxlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

import io.github.setnxlock.LockHandle;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The asynchronous APIs, driven by the harness's worker threads: each acquisition and
 * release is a future the worker waits for, so a row measures what one asynchronous
 * acquire+release costs against the blocking one of the same library, hand-over to the
 * completing thread included.
 *
 * @author setnx-lock authors
 */
final class AsyncContenders {

	static final String SETNX_LOCK_ASYNC = "setnx-lock token async";

	static final String REDISSON_ASYNC = "Redisson lockAsync";

	private AsyncContenders() {
	}

	/**
	 * setnx-lock's {@code acquireAsync}, with its default settings: the registry's lease,
	 * renewed while held.
	 */
	static final class SetnxLockAsync implements Contender {

		private final LettuceConnectionFactory factory;

		private final SetnxLockRegistry registry;

		SetnxLockAsync(Contenders.Server server) {
			this.factory = server.connectionFactory();
			this.registry = new SetnxLockRegistry(new StringRedisTemplate(this.factory),
					SetnxLockSettings.builder().keyPrefix(server.unique("bench:setnx-async") + ":").build());
		}

		@Override
		public String name() {
			return SETNX_LOCK_ASYNC;
		}

		@Override
		public KeyLock lockFor(String key) {
			var lock = this.registry.obtain(key);
			return new KeyLock() {

				private LockHandle held;

				@Override
				public void lock() {
					this.held = lock.acquireAsync(Duration.ofDays(1)).join().orElseThrow();
				}

				@Override
				public void unlock() {
					LockHandle handle = this.held;
					this.held = null;
					handle.release().join();
				}

			};
		}

		@Override
		public void close() {
			this.registry.close();
			this.factory.destroy();
		}

	}

	/**
	 * Redisson's {@code lockAsync} with its watchdog; its holds belong to a "thread id"
	 * the caller passes, one per worker here.
	 */
	static final class RedissonAsync implements Contender {

		private final RedissonClient client;

		private final String prefix;

		private final AtomicLong owners = new AtomicLong();

		RedissonAsync(Contenders.Server server) {
			this.prefix = server.unique("bench:redisson-async");
			this.client = RedissonContender.client(server.host(), server.port());
		}

		@Override
		public String name() {
			return REDISSON_ASYNC;
		}

		@Override
		public KeyLock lockFor(String key) {
			RLock lock = this.client.getLock(this.prefix + ":" + key);
			long owner = this.owners.incrementAndGet();
			return new KeyLock() {

				@Override
				public void lock() {
					lock.lockAsync(owner).toCompletableFuture().join();
				}

				@Override
				public void unlock() {
					lock.unlockAsync(owner).toCompletableFuture().join();
				}

			};
		}

		@Override
		public void close() {
			this.client.shutdown();
		}

	}

}
