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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;

/**
 * A thread that takes a lock and then watches, by its own reckoning, whether it still
 * holds it: it notes the last moment {@link LeasedLock#isHeldByCurrentThread()} was true,
 * until it turns false. A fault test compares that moment with the moment a competitor
 * acquired the lock: the holder must have stopped believing first.
 *
 * @author setnx-lock authors
 */
final class WatchfulHolder {

	private final LeasedLock lock;

	private final CountDownLatch held = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final CompletableFuture<String> unlocked = new CompletableFuture<>();

	private volatile RuntimeException failure;

	private volatile long token;

	private volatile long lastHeld;

	private volatile long stoppedBelieving;

	private WatchfulHolder(LeasedLock lock) {
		this.lock = lock;
	}

	/**
	 * Start a thread that takes the lock with the watchdog and watches it.
	 * @param lock the lock
	 * @return the holder, once it holds the lock
	 * @throws InterruptedException if interrupted waiting for it
	 */
	static WatchfulHolder start(LeasedLock lock) throws InterruptedException {
		WatchfulHolder holder = new WatchfulHolder(lock);
		Thread thread = new Thread(holder::hold, "watchful-holder");
		thread.setDaemon(true);
		thread.start();
		if (!holder.held.await(30, TimeUnit.SECONDS) || holder.failure != null) {
			throw new IllegalStateException("The holder did not get lock '" + lock.key() + "'", holder.failure);
		}
		return holder;
	}

	private void hold() {
		try {
			this.lock.lock();
			this.token = this.lock.fencingToken();
		}
		catch (RuntimeException ex) {
			this.failure = ex;
			this.held.countDown();
			return;
		}
		this.lastHeld = FaultClient.micros();
		this.held.countDown();
		while (this.lock.isHeldByCurrentThread() && this.release.getCount() > 0) {
			this.lastHeld = FaultClient.micros();
			sleep();
		}
		this.stoppedBelieving = this.lock.isHeldByCurrentThread() ? 0 : FaultClient.micros();
		try {
			this.release.await();
			this.lock.unlock();
			this.unlocked.complete("ok");
		}
		catch (LockLostException ex) {
			this.unlocked.complete("lost");
		}
		catch (LockAccessException ex) {
			this.unlocked.complete("error");
		}
		catch (InterruptedException | RuntimeException ex) {
			this.unlocked.completeExceptionally(ex);
		}
	}

	private static void sleep() {
		try {
			Thread.sleep(1);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	long token() {
		return this.token;
	}

	/**
	 * Return the last moment the holder believed it held the lock.
	 * @return the moment, in microseconds of the wall clock
	 */
	long lastHeld() {
		return this.lastHeld;
	}

	/**
	 * Return when the holder found it no longer held the lock, 0 if it never did.
	 * @return the moment, in microseconds of the wall clock
	 */
	long stoppedBelieving() {
		return this.stoppedBelieving;
	}

	/**
	 * Let the holder unlock, and return what {@code unlock()} found: {@code ok},
	 * {@code lost} or {@code error}.
	 * @return what it found
	 * @throws Exception if the holder failed otherwise
	 */
	String unlock() throws Exception {
		this.release.countDown();
		return this.unlocked.get(30, TimeUnit.SECONDS);
	}

}
