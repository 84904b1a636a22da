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
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.memory.LockSpace.Entry;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * The token protocol's rules on a {@link LockSpace}, as {@code TokenLockCommands} sends
 * them to Redis in Lua: a key holds its holder's owner token, with the waiter's mark once
 * someone waits for it, and expires with its lease; only the token's owner releases,
 * renews or shortens it, and the release of a marked key is announced. An acquisition
 * sent again finds its own key and takes it, as after a reconnect. Every call runs on the
 * space's thread.
 *
 * @author setnx-lock authors
 */
final class MemoryLockCommands implements LockCommands {

	private final LockSpace space;

	MemoryLockCommands(LockSpace space) {
		this.space = space;
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long sentNanos = System.nanoTime();
		return this.space.call((now) -> {
			Entry held = this.space.liveUnlessOwnerDied(key, now);
			if (held != null && !ownerToken.equals(WaiterMark.removedFrom(held.value()))) {
				return heldAttempt(held, waits, now);
			}
			this.space.put(key, (held != null) ? held.value() : ownerToken, now, lease.toNanos());
			return Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, lease.toMillis()));
		});
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return this.space.call((now) -> {
			Entry held = this.space.liveUnlessOwnerDied(key, now);
			return (held != null) ? heldAttempt(held, true, now) : Attempt.LEFT_FREE;
		});
	}

	private Attempt heldAttempt(Entry held, boolean waits, long now) {
		boolean marked = held.isMarked();
		if (waits && !marked) {
			this.space.mark(held);
			marked = true;
		}
		// Rounded up, so that a waiter's timer does not come before the end.
		return Attempt.held((held.deadlineNanos() - now + 999_999) / 1_000_000, marked);
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		return this.space.call((now) -> ownedBy(this.space.live(key, now), lease.value())
				? OptionalLong.of(this.space.nextFencingToken()) : OptionalLong.empty());
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.space.call((now) -> delete(key, lease.value(), null, now));
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return this.space.call((now) -> deleted(delete(key, ownerToken, null, now)));
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.space.call((now) -> delete(key, lease.value(), keep, now));
	}

	@Override
	public CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		long sentNanos = System.nanoTime();
		return this.space.call((now) -> deleted(delete(key, lease.value(), shorter, now))
				? RenewalResult.renewed(new Lease(lease.value(), lease.fencingToken(), sentNanos, shorter.toMillis()))
				: RenewalResult.rejected(ReleaseResult.NOT_OURS));
	}

	/**
	 * Delete a key that still holds the given token, or keep it for a while, and tell the
	 * waiters that marked it.
	 */
	private ReleaseResult delete(LockKey key, String token, Duration keep, long now) {
		Entry held = this.space.live(key, now);
		if (held == null) {
			return ReleaseResult.GONE;
		}
		if (!ownedBy(held, token)) {
			return ReleaseResult.NOT_OURS;
		}
		if (keep == null) {
			this.space.remove(key);
		}
		else {
			this.space.put(key, held.value(), now, keep.toNanos());
		}
		if (!held.isMarked()) {
			return ReleaseResult.RELEASED;
		}
		this.space.announce(key);
		return ReleaseResult.RELEASED_AND_ANNOUNCED;
	}

	/** Whether {@link #delete} found the key as the caller left it. */
	private static boolean deleted(ReleaseResult result) {
		return result == ReleaseResult.RELEASED || result == ReleaseResult.RELEASED_AND_ANNOUNCED;
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		long sentNanos = System.nanoTime();
		return this.space.call((now) -> {
			List<RenewalResult> results = new ArrayList<>(keys.size());
			for (int i = 0; i < keys.size(); i++) {
				Entry held = this.space.live(keys.get(i), now);
				Lease current = leases.get(i);
				if (ownedBy(held, current.value())) {
					this.space.put(held.key(), held.value(), now, lease.toNanos());
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

	/**
	 * Delete the key and tell its waiters, as a release would: what the engine's renewer
	 * found, if the space did not find it first.
	 */
	@Override
	public boolean endDeadHolder(LockKey key, Lease lease) {
		this.space.call((now) -> delete(key, lease.value(), null, now));
		return true;
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.space.call((now) -> this.space.liveUnlessOwnerDied(key, now) != null);
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return this.space.call((now) -> {
			Entry held = this.space.liveUnlessOwnerDied(key, now);
			return (held != null) ? WaiterMark.removedFrom(held.value()) : null;
		});
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		return this.space.call((now) -> {
			Entry held = this.space.live(key, now);
			return held != null && held.value().equals(WaiterMark.on(lease.value()));
		});
	}

	@Override
	public boolean reChecksQuickly() {
		return false;
	}

	private static boolean ownedBy(Entry entry, String token) {
		return entry != null && token.equals(WaiterMark.removedFrom(entry.value()));
	}

}
