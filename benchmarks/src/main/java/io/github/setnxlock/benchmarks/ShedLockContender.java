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
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * ShedLock's Spring Data Redis provider, which only tries once; a failed attempt is
 * retried here after a short pause. Without {@code safeUpdate} its release is a plain
 * {@code DEL}.
 *
 * @author setnx-lock authors
 */
final class ShedLockContender implements Contender {

	private final LettuceConnectionFactory factory;

	private final RedisLockProvider provider;

	private final boolean safe;

	ShedLockContender(Contenders.Server server, boolean safe) {
		this.factory = server.connectionFactory();
		this.provider = new RedisLockProvider.Builder(this.factory).environment(server.unique("bench"))
			.safeUpdate(safe)
			.build();
		this.safe = safe;
	}

	static String name(boolean safe) {
		return safe ? "ShedLock safeUpdate" : "ShedLock default";
	}

	@Override
	public String name() {
		return name(this.safe);
	}

	@Override
	public KeyLock lockFor(String key) {
		return new KeyLock() {

			private SimpleLock held;

			@Override
			public void lock() {
				while (true) {
					Optional<SimpleLock> lock = ShedLockContender.this.provider
						.lock(new LockConfiguration(Instant.now(), key, Contenders.LEASE, Duration.ZERO));
					if (lock.isPresent()) {
						this.held = lock.get();
						return;
					}
					LockSupport.parkNanos(Contenders.RETRY_PAUSE_NANOS);
				}
			}

			@Override
			public void unlock() {
				this.held.unlock();
			}

		};
	}

	@Override
	public void close() {
		this.factory.destroy();
	}

}
