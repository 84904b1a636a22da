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

import java.time.Instant;

/**
 * A hold that ended before its holder released it. The Spring Boot starter also publishes
 * it as an application event, so an {@code @EventListener} method can react to it.
 *
 * @param key the lock's key, without the registry's prefix
 * @param name the lock's logical name, or an empty string when it was obtained without
 * one
 * @param reason how it was lost
 * @param holder the name of the thread that held it
 * @param fencingToken the fencing token of the lost hold, {@code 0} if it never drew one
 * @param lostAt when the registry found out
 * @author setnx-lock authors
 */
public record LockLostEvent(String key, String name, Reason reason, String holder, long fencingToken, Instant lostAt) {

	/**
	 * How a hold was lost.
	 */
	public enum Reason {

		/**
		 * A renewal, or the draw of the hold's fencing token, found that the lock key was
		 * no longer the holder's: another client took it over or deleted it.
		 */
		RENEWAL_REJECTED,

		/**
		 * Renewals could not reach Redis before the holder's own deadline.
		 */
		RENEWAL_FAILED,

		/**
		 * The hold's lease ended before it was released: an explicit lease shorter than
		 * the work, a hold longer than the renewal limit, or renewals turned off.
		 */
		LEASE_ENDED,

		/**
		 * The release found the lock key holding another client's value. A release that
		 * finds no key at all is not a loss by itself (the client may have sent it again
		 * after a reconnect, and found the key its first run deleted), nor is one that
		 * finds another value after the client reconnected while the release was under
		 * way.
		 */
		RELEASE_FOUND_ANOTHER_OWNER,

		/**
		 * An operator released the lock by force (the actuator endpoint's delete
		 * operation or {@code SetnxLockRegistry.forceRelease}).
		 */
		FORCE_RELEASED

	}

}
