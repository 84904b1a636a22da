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

import java.util.concurrent.TimeUnit;

/**
 * One acquisition as the holder knows it: what it wrote, its fencing token, and how long
 * Redis will keep it.
 * <p>
 * The holder's deadline counts from the moment the command was <em>sent</em>, on the
 * monotonic clock, so network and queueing delay shorten the hold rather than extend it;
 * a drift margin (1% of the validity plus 2 ms) covers the difference between our clock
 * rate and the server's. By that deadline no other client can have been given the lock.
 *
 * @param value what the lock key holds: the owner token or the expiry timestamp
 * @param fencingToken the fencing token drawn with the acquisition (timestamp protocol),
 * or {@link #NOT_DRAWN} where it is drawn when the holder asks (token protocol)
 * @param sentNanos {@link System#nanoTime()} just before the command was sent
 * @param validityMillis how long after the command ran the key stays ours
 * @param nodeMask under Redlock, which nodes are known to hold the key (bit {@code i} for
 * node {@code i}); {@code 0} on a single Redis
 * @author setnx-lock authors
 */
public record Lease(String value, long fencingToken, long sentNanos, long validityMillis, long nodeMask) {

	/** The fencing token of a lease whose acquisition drew none. */
	public static final long NOT_DRAWN = 0;

	/**
	 * Create the lease of an acquisition on a single Redis, which has no node mask.
	 * @param value what the lock key holds: the owner token or the expiry timestamp
	 * @param fencingToken the fencing token drawn with the acquisition, or
	 * {@link #NOT_DRAWN}
	 * @param sentNanos {@link System#nanoTime()} just before the command was sent
	 * @param validityMillis how long after the command ran the key stays ours
	 */
	public Lease(String value, long fencingToken, long sentNanos, long validityMillis) {
		this(value, fencingToken, sentNanos, validityMillis, 0);
	}

	/**
	 * Return on how many Redlock nodes the key is known to live.
	 * @return the number of nodes, {@code 0} on a single Redis
	 */
	public int nodeCount() {
		return Long.bitCount(this.nodeMask);
	}

	private static final long FIXED_DRIFT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	/**
	 * Return when the lease ends by this JVM's monotonic clock, less the drift margin.
	 * @return the deadline, comparable with {@link System#nanoTime()}
	 */
	public long deadlineNanos() {
		long validityNanos = TimeUnit.MILLISECONDS.toNanos(this.validityMillis);
		return this.sentNanos + validityNanos - (validityNanos / 100 + FIXED_DRIFT_NANOS);
	}

	/**
	 * Whether the lease has ended.
	 * @param nowNanos {@link System#nanoTime()} now
	 * @return {@code true} from the deadline on
	 */
	public boolean isExpired(long nowNanos) {
		return nowNanos - deadlineNanos() >= 0;
	}

	/**
	 * Return how long the lease has left.
	 * @param nowNanos {@link System#nanoTime()} now
	 * @return the time to the deadline in ms, {@code 0} once it has passed
	 */
	public long remainingMillis(long nowNanos) {
		return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos() - nowNanos));
	}

	@Override
	public String toString() {
		// The value may be an owner token, which must never reach a log.
		return "Lease[fencingToken=" + this.fencingToken + ", validityMillis=" + this.validityMillis
				+ ((this.nodeMask != 0) ? ", nodes=" + Long.toBinaryString(this.nodeMask) : "") + "]";
	}

}
