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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.setnxlock.redis.engine.KeyState;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.ReleaseListener;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * The lock keys that one or more {@link InMemoryLockRegistry registries} contend for: to
 * their engines what a Redis server is to the Redis registry's, speaking the token
 * protocol.
 * <p>
 * Every command runs on the space's one thread, in the order sent, as Redis runs its
 * scripts, and its answer completes on that thread, as Lettuce's do on its event loop. A
 * key holds its holder's owner token, with the waiter's mark once someone waits for it,
 * and expires with its lease; the release of a marked key is told to every registry on
 * the space, after the releaser's answer.
 * <p>
 * Two things differ from Redis, where this JVM can do better. A hold the watchdog renews
 * ends as soon as its owning thread is found dead, not with its lease: when a command
 * finds its key, and every {@value #OWNER_WATCH_MILLIS} ms while someone waits for it.
 * Fencing tokens come from one counter for the space, so they increase per key without a
 * clock.
 *
 * @author setnx-lock authors
 */
final class LockSpace implements LockCommands {

	/** How often the holders of keys someone waits for are looked at. */
	static final long OWNER_WATCH_MILLIS = 100;

	/** How long the space's thread outlives its last command. */
	private static final long IDLE_THREAD_SECONDS = 10;

	private final ScheduledThreadPoolExecutor server;

	/** The lock keys, by key. Confined to the space's thread. */
	private final Map<String, Entry> keys = new HashMap<>();

	/** Confined to the space's thread. */
	private long lastFencingToken;

	/** Confined to the space's thread. */
	private ScheduledFuture<?> ownerWatch;

	/** The engines of the registries on this space, asked whether a holder died. */
	private final List<LockEngine> engines = new CopyOnWriteArrayList<>();

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
	 * @param engine the engine
	 */
	void join(LockEngine engine) {
		this.engines.add(engine);
	}

	/**
	 * Let a closed registry's engine go.
	 * @param engine the engine
	 */
	void leave(LockEngine engine) {
		this.engines.remove(engine);
	}

	/**
	 * Tell a registry's engine of the releases of marked keys, as its subscription to the
	 * release channel does in Redis.
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

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long sentNanos = System.nanoTime();
		return call(() -> {
			long now = System.nanoTime();
			Entry held = liveUnlessOwnerDied(key, now);
			// A key of this very attempt's is its answer sent again: it is ours.
			if (held != null && !ownerToken.equals(WaiterMark.removedFrom(held.value))) {
				return heldAttempt(held, waits, now);
			}
			put(key, (held != null) ? held.value : ownerToken, now, lease.toNanos());
			return Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, lease.toMillis()));
		});
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return call(() -> {
			long now = System.nanoTime();
			Entry held = liveUnlessOwnerDied(key, now);
			return (held != null) ? heldAttempt(held, true, now) : Attempt.LEFT_FREE;
		});
	}

	private Attempt heldAttempt(Entry held, boolean waits, long now) {
		boolean marked = held.isMarked();
		if (waits && !marked) {
			this.keys.put(held.key.redisKey(), new Entry(held.key, WaiterMark.on(held.value), held.deadlineNanos));
			watchOwners();
			marked = true;
		}
		// Rounded up, so that a waiter's timer does not come before the end.
		return Attempt.held((held.deadlineNanos - now + 999_999) / 1_000_000, marked);
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		return call(() -> ownedBy(live(key, System.nanoTime()), lease.value())
				? OptionalLong.of(++this.lastFencingToken) : OptionalLong.empty());
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return call(() -> delete(key, lease.value(), null));
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return call(() -> deleted(delete(key, ownerToken, null)));
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return call(() -> delete(key, lease.value(), keep));
	}

	/**
	 * Delete a key that still holds the given token, or keep it for a while, and tell the
	 * waiters that marked it.
	 */
	private ReleaseResult delete(LockKey key, String token, Duration keep) {
		long now = System.nanoTime();
		Entry held = live(key, now);
		if (held == null) {
			return ReleaseResult.GONE;
		}
		if (!ownedBy(held, token)) {
			return ReleaseResult.NOT_OURS;
		}
		if (keep == null) {
			this.keys.remove(key.redisKey());
		}
		else {
			put(key, held.value, now, keep.toNanos());
		}
		if (!held.isMarked()) {
			return ReleaseResult.RELEASED;
		}
		announce(key);
		return ReleaseResult.RELEASED_AND_ANNOUNCED;
	}

	/** Whether {@link #delete} found the key as the caller left it. */
	private static boolean deleted(ReleaseResult result) {
		return result == ReleaseResult.RELEASED || result == ReleaseResult.RELEASED_AND_ANNOUNCED;
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		long sentNanos = System.nanoTime();
		return call(() -> {
			long now = System.nanoTime();
			List<RenewalResult> results = new ArrayList<>(keys.size());
			for (int i = 0; i < keys.size(); i++) {
				Entry held = live(keys.get(i), now);
				Lease current = leases.get(i);
				if (ownedBy(held, current.value())) {
					put(held.key, held.value, now, lease.toNanos());
					results.add(RenewalResult
						.renewed(new Lease(current.value(), current.fencingToken(), sentNanos, lease.toMillis())));
				}
				else {
					results.add(RenewalResult.rejected(ReleaseResult.NOT_OURS));
				}
			}
			return results;
		});
	}

	@Override
	public CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		long sentNanos = System.nanoTime();
		return call(() -> deleted(delete(key, lease.value(), shorter))
				? RenewalResult.renewed(new Lease(lease.value(), lease.fencingToken(), sentNanos, shorter.toMillis()))
				: RenewalResult.rejected(ReleaseResult.NOT_OURS));
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return call(() -> liveUnlessOwnerDied(key, System.nanoTime()) != null);
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return call(() -> {
			Entry held = liveUnlessOwnerDied(key, System.nanoTime());
			return (held != null) ? WaiterMark.removedFrom(held.value) : null;
		});
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		return call(() -> {
			Entry held = live(key, System.nanoTime());
			return held != null && held.value.equals(WaiterMark.on(lease.value()));
		});
	}

	@Override
	public boolean reChecksQuickly() {
		return false;
	}

	/**
	 * Whether a key holds the given lock, as this space's monitor sees it now: for tests.
	 */
	boolean isLocked(String key) {
		return isLocked(LockKey.of("", key)).join();
	}

	/**
	 * Return how many lock keys are held now: for tests, which check that nothing was
	 * left behind.
	 */
	int keyCount() {
		return call(() -> {
			long now = System.nanoTime();
			this.keys.values().removeIf((entry) -> entry.hasEnded(now));
			return this.keys.size();
		}).join();
	}

	/** Return how many owners of the registries on this space wait for a key. */
	int waiters(String key) {
		int waiters = 0;
		for (LockEngine engine : this.engines) {
			KeyState state = engine.stats().keyState(key);
			waiters += (state != null) ? state.waiting() : 0;
		}
		return waiters;
	}

	/** Return how many owners of the registries on this space wait for any key. */
	int waiterCount() {
		return this.engines.stream().mapToInt((engine) -> engine.stats().waiting()).sum();
	}

	/** Return how many keys have state though nobody holds or waits for them. */
	int idleKeyCount() {
		return this.engines.stream().mapToInt((engine) -> engine.stats().idleKeys()).sum();
	}

	/**
	 * Run a command on the space's thread.
	 */
	private <T> CompletableFuture<T> call(Supplier<T> command) {
		CompletableFuture<T> answer = new CompletableFuture<>();
		this.server.execute(() -> {
			try {
				answer.complete(command.get());
			}
			catch (RuntimeException ex) {
				answer.completeExceptionally(ex);
			}
		});
		return answer;
	}

	private void put(LockKey key, String value, long now, long ttlNanos) {
		this.keys.put(key.redisKey(), new Entry(key, value, now + ttlNanos));
	}

	private Entry live(LockKey key, long now) {
		Entry entry = this.keys.get(key.redisKey());
		if (entry != null && entry.hasEnded(now)) {
			this.keys.remove(key.redisKey());
			return null;
		}
		return entry;
	}

	private Entry liveUnlessOwnerDied(LockKey key, long now) {
		Entry entry = live(key, now);
		if (entry != null && ownerDied(entry)) {
			this.keys.remove(key.redisKey());
			announce(key);
			return null;
		}
		return entry;
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

	private static boolean ownedBy(Entry entry, String token) {
		return entry != null && token.equals(WaiterMark.removedFrom(entry.value));
	}

	/**
	 * Tell every registry that a key was released, after the answer of the command that
	 * released it.
	 */
	private void announce(LockKey key) {
		this.server.execute(() -> this.subscribers.forEach((listener) -> listener.released(key.redisKey())));
	}

	/**
	 * Look at the holders of marked keys while there are any, so that a waiter gets the
	 * key of a holder that died soon, not when the holder's lease would have ended.
	 */
	private void watchOwners() {
		if (this.ownerWatch == null) {
			this.ownerWatch = this.server.scheduleWithFixedDelay(this::lookAtOwners, OWNER_WATCH_MILLIS,
					OWNER_WATCH_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	private void lookAtOwners() {
		long now = System.nanoTime();
		boolean waitedFor = false;
		for (Iterator<Entry> entries = this.keys.values().iterator(); entries.hasNext();) {
			Entry entry = entries.next();
			if (entry.hasEnded(now)) {
				entries.remove();
			}
			else if (entry.isMarked()) {
				if (ownerDied(entry)) {
					entries.remove();
					announce(entry.key);
				}
				else {
					waitedFor = true;
				}
			}
		}
		if (!waitedFor) {
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
	private record Entry(LockKey key, String value, long deadlineNanos) {

		boolean hasEnded(long now) {
			return this.deadlineNanos - now <= 0;
		}

		boolean isMarked() {
			return !this.value.equals(WaiterMark.removedFrom(this.value));
		}

	}

}
