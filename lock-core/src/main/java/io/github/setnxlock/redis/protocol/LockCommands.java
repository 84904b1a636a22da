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
package io.github.setnxlock.redis.protocol;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;

/**
 * The Redis side of one protocol: acquire (with the expire-takeover), owner-checked
 * release, and a read of whether anyone holds a key. Implementations are stateless and
 * thread-safe; a Redis failure of a call for one lock surfaces as a
 * {@link io.github.setnxlock.LockAccessException} naming the key.
 * <p>
 * Every call hands back its answer to come and never blocks (see
 * {@link io.github.setnxlock.redis.gateway.RedisGateway}), so callers wait with deadlines
 * of their own. Internal API.
 *
 * @author setnx-lock authors
 */
public interface LockCommands {

	/**
	 * Try once to acquire the lock.
	 * @param key the lock's keys
	 * @param ownerToken the random token of this acquisition
	 * @param lease how long the hold lasts
	 * @param waits whether the caller waits for the holder's release if the lock is held,
	 * so that the holder announces it
	 * @return the attempt's outcome to come
	 */
	CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits);

	/**
	 * Return the fencing token of a hold: drawn now, while the lock key still belongs to
	 * the lease, under the token protocol; the one drawn with the acquisition under the
	 * timestamp protocol. Ask once per hold: every call draws a new token.
	 * @param key the lock's keys
	 * @param lease the hold's current lease
	 * @return the token, or empty when the key no longer belongs to the lease, to come
	 */
	CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease);

	/**
	 * Mark the holder of the lock for a waiter, as a waiting {@link #acquire} does, but
	 * leave a free key to others: a registry letting a waiter elsewhere go first (see
	 * {@link #marksWaiters()}).
	 * @param key the lock's keys
	 * @return the held attempt, or {@link Attempt#LEFT_FREE}, to come; always the latter
	 * where waiters leave no mark
	 */
	CompletableFuture<Attempt> markHolder(LockKey key);

	/**
	 * Delete the lock key if it still belongs to the given lease.
	 * @param key the lock's keys
	 * @param lease the lease to give back
	 * @return what the release found, to come
	 */
	CompletableFuture<ReleaseResult> release(LockKey key, Lease lease);

	/**
	 * Undo an acquisition whose answer never came (a command timeout, a reset connection,
	 * a caller that stopped waiting): delete the lock key if that acquisition wrote it
	 * and it is still as it left it. Safe to send whether the acquisition ran or not, and
	 * more than once.
	 * @param key the lock's keys
	 * @param ownerToken the acquisition's owner token
	 * @return whether a key was deleted, to come
	 */
	CompletableFuture<Boolean> abandon(LockKey key, String ownerToken);

	/**
	 * If the lock key still belongs to the given lease, let it expire after the given
	 * time instead of deleting it.
	 * @param key the lock's keys
	 * @param lease the lease to give back
	 * @param keep how long the key stays
	 * @return what the release found, to come
	 */
	CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep);

	/**
	 * Extend the leases of held locks while their keys are still theirs, all in one round
	 * trip.
	 * @param keys the locks' keys
	 * @param leases their current leases, in the same order
	 * @param lease how long each is extended for, from now
	 * @return one result per lock, in the same order, to come; failed as a whole when the
	 * batch could not be sent at all
	 */
	CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease);

	/**
	 * Give one hold a lease that ends sooner than its current one, as {@link #renew}
	 * does, and tell the waiters that marked the key, so that they wait for the new end
	 * rather than the old one.
	 * @param key the lock's key
	 * @param lease the hold's current lease
	 * @param shorter the new lease, from now
	 * @return the result, to come; by default a renewal that tells nobody, for protocols
	 * whose waiters re-check without being told
	 */
	default CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		return renew(List.of(key), List.of(lease), shorter).thenApply((results) -> results.get(0));
	}

	/**
	 * End the key of a hold whose owning thread died without releasing it, where waiters
	 * can be told at once (in memory); Redis protocols leave it to end with its lease.
	 * @param key the lock's key
	 * @param lease the dead holder's lease
	 * @return whether the key is being ended, without waiting for it
	 */
	default boolean endDeadHolder(LockKey key, Lease lease) {
		return false;
	}

	/**
	 * Whether any client holds the lock now.
	 * @param key the lock's keys
	 * @return {@code true} if held, to come
	 */
	CompletableFuture<Boolean> isLocked(LockKey key);

	/**
	 * Read the owner token that holds the lock now, without a waiter's mark, for messages
	 * that say who took a lock: under the timestamp protocol the owner key's, when it
	 * names the lock key's value.
	 * @param key the lock's keys
	 * @return the token, or {@code null} when there is no key or no token of this
	 * library's, to come
	 */
	CompletableFuture<String> ownerToken(LockKey key);

	/**
	 * Whether a waiter marks the key it waits for, so that its holder can learn that
	 * another registry waits ({@link #waiterMarked}): under the token protocol. Clients
	 * of the documented timestamp pattern leave no mark.
	 * @return {@code true} under the token protocol
	 */
	boolean marksWaiters();

	/**
	 * Read whether a waiter has marked the key while it belongs to the given lease.
	 * @param key the lock's keys
	 * @param lease the lease that holds the key
	 * @return whether the key holds the lease's token with a waiter's mark, to come
	 */
	CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease);

	/**
	 * Whether a waiter behind a holder that will not announce its release re-checks on
	 * the short back-off (1 to 3 ms) rather than the long one: under the timestamp
	 * protocol, whose documented clients poll and would otherwise win every hand-off.
	 * @return {@code true} under the timestamp protocol
	 */
	boolean reChecksQuickly();

	/**
	 * Say who has not answered an acquisition still under way, for the error of a wait
	 * that ended first: under Redlock, the nodes a decision still waits for.
	 * @param key the lock's keys
	 * @param ownerToken the acquisition's owner token
	 * @return what the acquisition waits for, or {@code null} when there is nothing to
	 * add to "Redis did not answer"
	 */
	default String unanswered(LockKey key, String ownerToken) {
		return null;
	}

}
