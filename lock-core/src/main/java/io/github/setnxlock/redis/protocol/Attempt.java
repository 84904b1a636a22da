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

/**
 * The answer to one acquisition attempt: either a {@link Lease}, or how long the current
 * holder's claim still runs.
 *
 * @param lease the lease when acquired, otherwise {@code null}
 * @param holderTtlMillis when held by someone else, the time left on their claim in
 * milliseconds, or {@code -1} when Redis does not know (a key without expiry)
 * @param holderAnnounces when held by someone else, whether that holder will announce its
 * release (a holder of this library whose token a waiter marked); a holder that will not
 * is re-checked on a back-off instead
 * @param previousValue under the timestamp protocol, the expired value that was taken
 * over; otherwise {@code null}
 * @author setnx-lock authors
 */
public record Attempt(Lease lease, long holderTtlMillis, boolean holderAnnounces, String previousValue) {

	/**
	 * An attempt that only marked the holder found the key free, and left it so.
	 */
	public static final Attempt LEFT_FREE = new Attempt(null, -2, false, null);

	/**
	 * Return an attempt that acquired the lock.
	 * @param lease the lease it got
	 * @return the attempt
	 */
	public static Attempt acquired(Lease lease) {
		return new Attempt(lease, 0, false, null);
	}

	/**
	 * Return an attempt that took over an expired lock (timestamp protocol).
	 * @param lease the lease it got
	 * @param previousValue the expired value it replaced
	 * @return the attempt
	 */
	public static Attempt tookOver(Lease lease, String previousValue) {
		return new Attempt(lease, 0, false, previousValue);
	}

	/**
	 * Return an attempt that found the lock held by someone else.
	 * @param holderTtlMillis the holder's remaining time in ms, {@code -1} without one
	 * @param holderAnnounces whether that holder will announce its release
	 * @return the attempt
	 */
	public static Attempt held(long holderTtlMillis, boolean holderAnnounces) {
		return new Attempt(null, holderTtlMillis, holderAnnounces, null);
	}

	/**
	 * Whether the attempt got the lock.
	 * @return {@code true} if it holds a lease
	 */
	public boolean acquired() {
		return this.lease != null;
	}

	/**
	 * Whether the attempt got the lock by taking over an expired one.
	 * @return {@code true} if it replaced an expired value
	 */
	public boolean tookOver() {
		return this.previousValue != null;
	}

	@Override
	public String toString() {
		return acquired() ? "Attempt[acquired " + this.lease + "]"
				: "Attempt[held, ttl=" + this.holderTtlMillis + "ms]";
	}

}
