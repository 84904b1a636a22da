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

import java.time.Duration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A registry on a connection factory of its own, closed together: one client of the fault
 * tests, connected to Redis directly or through a proxy.
 *
 * @author setnx-lock authors
 */
final class FaultClient implements AutoCloseable {

	private final LettuceConnectionFactory factory;

	final StringRedisTemplate redis;

	final SetnxLockRegistry registry;

	FaultClient(LettuceConnectionFactory factory, SetnxLockSettings settings, LockListener... listeners) {
		this.factory = factory;
		this.redis = RedisConnections.template(factory);
		this.registry = new SetnxLockRegistry(this.redis, settings, List.of(listeners));
		// Connect and load the scripts now: a first lock on a cold JVM and a busy machine
		// can take longer than the short leases these tests use.
		LeasedLock warmUp = this.registry.obtain("warm-up");
		try {
			if (!warmUp.tryLock(Duration.ofSeconds(30), Duration.ofSeconds(30))) {
				throw new IllegalStateException("Could not warm up: 'warm-up' is held");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted warming up", ex);
		}
		warmUp.unlock();
	}

	/**
	 * Return the wall clock in microseconds, the unit the fault tests compare moments in.
	 * @return the time
	 */
	static long micros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

	@Override
	public void close() {
		this.registry.close();
		RedisConnections.destroy(this.factory);
	}

}
