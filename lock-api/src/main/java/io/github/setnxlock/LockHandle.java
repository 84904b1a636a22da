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

package io.github.setnxlock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A hold of a lock that belongs to no thread: what {@link LeasedLock#acquireAsync} gives.
 * Any thread may use it and release it, once.
 * <p>
 * It holds as a thread's hold does: renewed while held when acquired without a lease of
 * its own (until {@link #release()}, so a hold nobody releases is renewed until the
 * registry's hold limit, if one is set), else ended by its lease; its holder's deadline
 * counts from when the acquisition was sent; it may be handed to a waiter of the same
 * registry without a round trip; and a loss is reported to the registry's listeners and
 * meters. It is not reentrant: acquiring the same key again, asynchronously or through
 * {@link java.util.concurrent.locks.Lock}, waits for this hold to be released.
 *
 * @author setnx-lock authors
 * @see LeasedLock#acquireAsync(java.time.Duration)
 */
public interface LockHandle {

	/**
	 * Return the key of the lock held, without the registry's prefix.
	 * @return the key
	 */
	String key();

	/**
	 * Return the lock's logical name; empty when none was given.
	 * @return the name
	 */
	String name();

	/**
	 * Whether the hold is still held: not released, and not lost (its lease has not
	 * ended, and no renewal found the key taken). Answered without asking Redis.
	 * @return {@code true} while held
	 */
	boolean isHeld();

	/**
	 * Throw if the hold was released or lost: long work under the lock can call it
	 * between steps.
	 * @throws IllegalStateException if it was released
	 * @throws LockLostException if it was lost; {@link #release()} is still owed
	 */
	void checkHeld();

	/**
	 * Return the hold's fencing token, drawn on the first call (see
	 * {@link LeasedLock#fencingToken()}), waiting for Redis up to the holder's deadline.
	 * @return the token
	 * @throws IllegalStateException if the hold was released
	 * @throws LockLostException if the hold was lost, or the draw found it lost
	 * @throws LockAccessException if Redis could not be reached; a later call draws again
	 */
	long fencingToken();

	/**
	 * Return the hold's fencing token without waiting for the draw.
	 * @return the token, to come; failed as {@link #fencingToken()} throws
	 */
	CompletableFuture<Long> fencingTokenAsync();

	/**
	 * Give the hold a new lease from now, if it still holds the key: for a hold taken
	 * with a lease of its own ({@link LeasedLock#acquireAsync(Duration, Duration)}),
	 * whose holder learns that its work needs longer. The lease replaces what was left,
	 * longer or shorter. A hold the registry renews cannot be extended this way.
	 * @param lease the new lease; positive
	 * @return {@code true} once extended; {@code false} if the hold was released or lost,
	 * or the answer came after the holder's deadline (the hold is then lost); failed with
	 * {@link LockAccessException} if Redis could not be reached (the hold keeps its
	 * lease), or with {@link IllegalStateException} for a renewed hold or while another
	 * extension of it is under way
	 * @throws IllegalArgumentException if the lease is not positive
	 */
	CompletableFuture<Boolean> extend(Duration lease);

	/**
	 * Release the hold: delete the key in Redis if it is still this holder's, or hand it
	 * to a waiter of the same registry. Nothing waits on a thread for Redis.
	 * @return completed once released; failed with {@link LockLostException} if the hold
	 * had been lost, with {@link LockAccessException} if Redis could not be reached (the
	 * key then ends with its lease), or with {@link IllegalStateException} if it was
	 * released already. The hold ends in each case.
	 */
	CompletableFuture<Void> release();

	/**
	 * Release the hold but leave the key in Redis for the given time, as
	 * {@link LeasedLock#unlockKeepingFor(Duration)} does.
	 * @param keep how long the lock stays in Redis; positive
	 * @return completed once done; failed as {@link #release()} is
	 * @throws IllegalArgumentException if {@code keep} is not positive; the hold is kept
	 */
	CompletableFuture<Void> releaseKeepingFor(Duration keep);

}
