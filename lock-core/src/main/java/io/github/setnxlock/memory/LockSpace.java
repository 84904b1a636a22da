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
package io.github.setnxlock.memory;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.ReleaseListener;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * The lock keys that one or more {@link InMemoryLockRegistry registries} contend for: to
 * their engines what a Redis server is to the Redis registry's, with
 * {@link MemoryLockCommands} for the protocol's scripts.
 * <p>
 * Every command runs on the space's one thread, in the order sent, as Redis runs its
 * scripts, and its answer completes on that thread, as Lettuce's do on its event loop;
 * keys expire when a command finds them past their deadline. An announced release reaches
 * every registry on the space after the releaser's answer.
 * <p>
 * Two things differ from Redis, where this JVM can do better. A hold the watchdog renews
 * ends as soon as its owning thread is found dead, not with its lease: when a command
 * finds its key, every {@value #OWNER_WATCH_MILLIS} ms while it is held, and when the
 * engine's renewer finds out first. Fencing tokens come from one counter for the space,
 * so they increase per key without a clock.
 *
 * @author setnx-lock authors
 */
final class LockSpace {

	private static final Log logger = LogFactory.getLog(InMemoryLockRegistry.class);

	/** How often the holders of the keys are looked at. */
	static final long OWNER_WATCH_MILLIS = 100;

	/** How long the space's thread outlives its last command. */
	private static final long IDLE_THREAD_SECONDS = 10;

	private final ScheduledThreadPoolExecutor server;

	/** The lock keys, by key. Confined to the space's thread, as the fields below. */
	final Map<String, Entry> keys = new HashMap<>();

	private long lastFencingToken;

	private ScheduledFuture<?> ownerWatch;

	/** The engines of the registries on this space, asked whether a holder died. */
	final List<LockEngine> engines = new CopyOnWriteArrayList<>();

	private final List<ReleaseListener> subscribers = new CopyOnWriteArrayList<>();

	LockSpace() {
		this.server = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "setnx-lock-memory");
			thread.setDaemon(true);
			return thread;
		});
		this.server.setRemoveOnCancelPolicy(true);
		this.server.setKeepAliveTime(IDLE_THREAD_SECONDS, TimeUnit.SECONDS);
		this.server.allowCoreThreadTimeOut(true);
	}

	/**
	 * Take a registry's engine in, to be asked whether the holders it knows are alive.
	 */
	void join(LockEngine engine) {
		this.engines.add(engine);
	}

	void leave(LockEngine engine) {
		this.engines.remove(engine);
	}

	/**
	 * Tell a registry's engine of announced releases, as its subscription to the release
	 * channel does in Redis.
	 * @param listener the engine's listener
	 * @return the messages, always listening
	 */
	ReleaseMessages subscribe(ReleaseListener listener) {
		this.subscribers.add(listener);
		return new ReleaseMessages() {

			@Override
			public boolean isListening() {
				return true;
			}

			@Override
			public boolean listening() {
				return true;
			}

			@Override
			public boolean requested() {
				return true;
			}

			@Override
			public void close() {
				LockSpace.this.subscribers.remove(listener);
			}

		};
	}

	/**
	 * Run a command on the space's thread.
	 * @param command the command, given the {@link System#nanoTime()} it runs at
	 * @return its answer, completed on the space's thread
	 */
	<T> CompletableFuture<T> call(LongFunction<T> command) {
		CompletableFuture<T> answer = new CompletableFuture<>();
		this.server.execute(() -> {
			try {
				answer.complete(command.apply(System.nanoTime()));
			}
			catch (Throwable ex) {
				answer.completeExceptionally(ex);
			}
		});
		return answer;
	}

	// The commands' steps, on the space's thread.

	Entry live(LockKey key, long now) {
		Entry entry = this.keys.get(key.redisKey());
		if (entry != null && entry.hasEnded(now)) {
			this.keys.remove(key.redisKey());
			return null;
		}
		return entry;
	}

	/**
	 * The live key, unless its holder's thread died: the key is deleted and announced.
	 */
	Entry liveUnlessOwnerDied(LockKey key, long now) {
		Entry entry = live(key, now);
		if (entry != null && ownerDied(entry)) {
			this.keys.remove(key.redisKey());
			announce(key);
			return null;
		}
		return entry;
	}

	void put(LockKey key, String value, long now, long ttlNanos) {
		this.keys.put(key.redisKey(), new Entry(key, value, now + ttlNanos));
		if (this.ownerWatch == null) {
			this.ownerWatch = this.server.scheduleWithFixedDelay(this::lookAtOwners, OWNER_WATCH_MILLIS,
					OWNER_WATCH_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	void remove(LockKey key) {
		this.keys.remove(key.redisKey());
	}

	/** Mark a held key for a waiter. */
	void mark(Entry held) {
		this.keys.put(held.key.redisKey(), new Entry(held.key, WaiterMark.on(held.value), held.deadlineNanos));
	}

	long nextFencingToken() {
		return ++this.lastFencingToken;
	}

	/**
	 * Tell every registry that a key was released, after the answer of the command that
	 * released it.
	 */
	void announce(LockKey key) {
		this.server.execute(() -> this.subscribers.forEach((listener) -> listener.released(key.redisKey())));
	}

	private boolean ownerDied(Entry entry) {
		String token = WaiterMark.removedFrom(entry.value);
		for (LockEngine engine : this.engines) {
			if (engine.ownerDied(entry.key, token)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Look at the holders of the keys while there are any, so that the key of a holder
	 * that died goes to its waiters soon, whichever registry they wait in, rather than
	 * when the holder's lease would have ended.
	 */
	private void lookAtOwners() {
		long now = System.nanoTime();
		for (Iterator<Entry> entries = this.keys.values().iterator(); entries.hasNext();) {
			Entry entry = entries.next();
			try {
				if (entry.hasEnded(now)) {
					entries.remove();
				}
				else if (ownerDied(entry)) {
					entries.remove();
					announce(entry.key);
				}
			}
			catch (RuntimeException ex) {
				// The watch must go on for the other keys, and for this one next time.
				logger.warn("Could not look at the holder of lock '" + entry.key.key() + "'", ex);
			}
		}
		if (this.keys.isEmpty()) {
			this.ownerWatch.cancel(false);
			this.ownerWatch = null;
		}
	}

	@Override
	public String toString() {
		return "LockSpace[registries=" + this.engines.size() + "]";
	}

	/**
	 * A lock key: its value, and the {@link System#nanoTime()} it expires at.
	 */
	record Entry(LockKey key, String value, long deadlineNanos) {

		boolean hasEnded(long now) {
			return this.deadlineNanos - now <= 0;
		}

		boolean isMarked() {
			return !this.value.equals(WaiterMark.removedFrom(this.value));
		}

	}

}
