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
package io.github.setnxlock.integration;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import org.springframework.integration.support.locks.DistributedLock;

import io.github.setnxlock.LeasedLock;

/**
 * A setnx-lock lock seen through Spring Integration's {@link DistributedLock}.
 *
 * @author setnx-lock authors
 */
final class IntegrationLock implements DistributedLock {

	/** Longer than any wait anybody means, short of overflowing nanosecond arithmetic. */
	private static final Duration UNLIMITED = Duration.ofDays(365L * 100);

	private final LeasedLock lock;

	IntegrationLock(LeasedLock lock) {
		this.lock = lock;
	}

	@Override
	public void lock() {
		this.lock.lock();
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		this.lock.lockInterruptibly();
	}

	@Override
	public boolean tryLock() {
		return this.lock.tryLock();
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return this.lock.tryLock(time, unit);
	}

	/**
	 * Wait for the lock as long as it takes, whatever interrupts arrive meanwhile (they
	 * are kept), holding it for the given time to live, which is not renewed.
	 * @param ttl the time to live
	 */
	@Override
	public void lock(Duration ttl) {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					if (this.lock.tryLock(UNLIMITED, ttl)) {
						return;
					}
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
		return this.lock.tryLock(waitTime, ttl);
	}

	@Override
	public void unlock() {
		this.lock.unlock();
	}

	@Override
	public Condition newCondition() {
		return this.lock.newCondition();
	}

	@Override
	public String toString() {
		return "IntegrationLock[" + this.lock + "]";
	}

}
