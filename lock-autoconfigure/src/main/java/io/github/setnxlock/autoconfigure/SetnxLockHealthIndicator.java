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

package io.github.setnxlock.autoconfigure;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.setnxlock.redis.operator.LockOperations;

/**
 * The health of a lock registry's Redis: up when Redis answers and holds the lock scripts
 * (any it has forgotten are loaded again), down with the Redis error otherwise. Its
 * details say the protocol, the key prefix, how many keys this instance holds or waits
 * for, and whether release messages are received: {@code releaseMessages} is
 * {@code no subscription yet} until the first wait for a lock subscribes,
 * {@code listening} while subscribed, and {@code not listening} when the subscription is
 * being made, was refused or was lost (waiters then re-check on their own).
 * <p>
 * It answers within a second, whatever the client's command timeout: a Redis that does
 * not answer by then is down, with why Redis counts as unreachable where a lock call
 * found out. While the application's first connection is still on its way it waits as a
 * first lock call does, so an application that has just started is not reported down for
 * its client's slow start.
 *
 * @author setnx-lock authors
 */
public class SetnxLockHealthIndicator extends AbstractHealthIndicator {

	private final LockOperations operations;

	/**
	 * Create an indicator for a registry.
	 * @param operations the operator API of the locks
	 */
	public SetnxLockHealthIndicator(LockOperations operations) {
		super("Lock registry health check failed");
		this.operations = operations;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up().withDetails(this.operations.checkHealth());
	}

}
