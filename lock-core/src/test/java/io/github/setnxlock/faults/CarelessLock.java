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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A deliberately broken lock, for showing that a {@link HistoryRun} catches a broken
 * lock: {@code SET NX PX} with a random value and an {@code INCR} fencing token, as the
 * hand-written snippets do, but a release that deletes the key without comparing its
 * value. A holder that outlived its lease deletes its successor's lock, and a third
 * client then takes the key while the successor still believes it holds it.
 * <p>
 * One instance serves one thread for one hold, as {@link HistoryWorker} uses it; it
 * neither renews nor supports what the worker does not call.
 *
 * @author setnx-lock authors
 */
final class CarelessLock implements LeasedLock {

	private final StringRedisTemplate redis;

	private final String key;

	private final Duration defaultLease;

	private Thread holder;

	private long deadline;

	private long token;

	CarelessLock(StringRedisTemplate redis, String key, Duration defaultLease) {
		this.redis = redis;
		this.key = key;
		this.defaultLease = defaultLease;
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public String name() {
		return this.key;
	}

	@Override
	public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
		String value = UUID.randomUUID().toString();
		long end = System.nanoTime() + wait.toNanos();
		do {
			long sent = System.nanoTime();
			if (Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(redisKey(), value, lease))) {
				this.token = this.redis.opsForValue().increment(redisKey() + ":fence");
				this.holder = Thread.currentThread();
				this.deadline = sent + lease.toNanos();
				return true;
			}
			Thread.sleep(1);
		}
		while (System.nanoTime() - end < 0);
		return false;
	}

	@Override
	public boolean tryLock(Duration wait) throws InterruptedException {
		return tryLock(wait, this.defaultLease);
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return tryLock(Duration.ofNanos(unit.toNanos(time)));
	}

	@Override
	public boolean tryLock() {
		try {
			return tryLock(Duration.ZERO);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void lock() {
		while (!tryLock()) {
			Thread.onSpinWait();
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		while (!tryLock(Duration.ofSeconds(1))) {
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
		}
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return this.holder == Thread.currentThread() && System.nanoTime() - this.deadline < 0;
	}

	@Override
	public void checkHeld() {
		if (!isHeldByCurrentThread()) {
			throw new LockLostException(this.key, "Lock '" + this.key + "' is not held");
		}
	}

	@Override
	public boolean isLocked() {
		return Boolean.TRUE.equals(this.redis.hasKey(redisKey()));
	}

	@Override
	public int holdCount() {
		return (this.holder == Thread.currentThread()) ? 1 : 0;
	}

	@Override
	public long fencingToken() {
		checkHeld();
		return this.token;
	}

	/**
	 * Delete the key, whoever holds it now: the flaw this class exists for.
	 */
	@Override
	public void unlock() {
		if (this.holder != Thread.currentThread()) {
			throw new IllegalMonitorStateException("Lock '" + this.key + "' is not held by this thread");
		}
		this.holder = null;
		this.redis.delete(redisKey());
	}

	@Override
	public void interruptOnLoss() {
		throw new UnsupportedOperationException("CarelessLock does not watch its lease");
	}

	@Override
	public void unlockKeepingFor(Duration keep) {
		throw new UnsupportedOperationException("CarelessLock cannot keep a key");
	}

	@Override
	public void extendLease(Duration lease) {
		throw new UnsupportedOperationException("CarelessLock does not extend");
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("CarelessLock has no conditions");
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait) {
		throw new UnsupportedOperationException("CarelessLock is used by threads only");
	}

	@Override
	public CompletableFuture<Optional<LockHandle>> acquireAsync(Duration wait, Duration lease) {
		throw new UnsupportedOperationException("CarelessLock is used by threads only");
	}

	private String redisKey() {
		return "careless:" + this.key;
	}

}
