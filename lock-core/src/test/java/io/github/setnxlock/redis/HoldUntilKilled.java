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
import io.github.setnxlock.test.RedisConnections;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A JVM that takes a lock with the watchdog, says so on standard output with its fencing
 * token, and holds it until it is killed. {@link DeadHolderTests} kills it.
 * <p>
 * Arguments: Redis port, lock key, lease in ms.
 *
 * @author setnx-lock authors
 */
public final class HoldUntilKilled {

	private HoldUntilKilled() {
	}

	public static void main(String[] args) throws InterruptedException {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
		factory.afterPropertiesSet();
		factory.start();
		SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.builder().leaseTime(Duration.ofMillis(Long.parseLong(args[2]))).build());
		LeasedLock lock = registry.obtain(args[1]);
		lock.lock();
		System.out.println("HELD " + lock.fencingToken());
		System.out.flush();
		while (true) {
			Thread.sleep(250);
			System.out
				.println("renewals " + registry.engine().stats().renewals() + ", held " + lock.isHeldByCurrentThread());
		}
	}

}
