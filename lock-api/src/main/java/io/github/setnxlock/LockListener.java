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

/**
 * Hears what happens to the locks of a registry, for metrics, logs and alerts. Every
 * method has a no-op default, so a listener implements only what it needs.
 * <p>
 * What a lock call finds out (an acquisition, a release, a loss that {@code unlock()}
 * finds) is told on the caller's thread, before the call returns. What the registry's
 * renewal finds out (renewals, a loss it notices, the end of a hold whose thread died) is
 * told on the registry's events thread, in order: a listener that blocks delays the
 * events after it, never a renewal. Keep listeners short all the same. A listener that
 * throws is logged and ignored; it never stops a lock from being released.
 *
 * @author setnx-lock authors
 */
public interface LockListener {

	/**
	 * An acquisition that went to Redis ended, with the lock or without it. Reentrant
	 * acquisitions by a thread that holds the lock already are not reported.
	 * @param acquisition how it ended
	 */
	default void acquisitionEnded(Acquisition acquisition) {
	}

	/**
	 * A thread released its hold (its last {@code unlock()}), or the registry dropped the
	 * hold of a thread that died holding it, or dropped an asynchronous hold
	 * ({@link LockHandle}) found lost, which its owner may never release; once per hold.
	 * @param release the release
	 */
	default void released(Release release) {
	}

	/**
	 * The registry tried to renew a hold's lease.
	 * @param renewal the renewal
	 */
	default void renewalEnded(Renewal renewal) {
	}

	/**
	 * A hold was lost before its holder released it: the work done under it may not have
	 * been exclusive. Told once per hold, when the loss is known (a lease nobody renews
	 * when it ends, not when its holder next looks), and never dropped, however far
	 * behind the listeners are.
	 * @param event what was lost, and how
	 */
	default void lockLost(LockLostEvent event) {
	}

	/**
	 * Under Redlock, a node failed its part of a lock call (an acquisition, renewal,
	 * release, fencing draw or read), or did not answer it within the node timeout; the
	 * other nodes decided the call. Told on the registry's events thread, once per node
	 * and call. Never told on a single Redis, whose failures reach the caller.
	 * @param failure which node, and how it failed
	 */
	default void nodeFailed(NodeFailure failure) {
	}

	/**
	 * How an acquisition ended.
	 *
	 * @param key the lock's key, without the registry's prefix
	 * @param name the lock's logical name, empty when it has none
	 * @param result how it ended
	 * @param waited how long the caller waited, from its call to the end
	 * @param tookOver whether it took over a holder's expired claim (timestamp protocol
	 * only: under the token protocol an expired key is simply gone)
	 */
	record Acquisition(String key, String name, Result result, Duration waited, boolean tookOver) {

		/**
		 * The outcome of an acquisition.
		 */
		public enum Result {

			/** The lock was acquired. */
			ACQUIRED,

			/** Someone else held the lock for the whole wait. */
			TIMEOUT,

			/** Redis could not be used (see {@link LockAccessException}). */
			ERROR,

			/** The waiting thread was interrupted. */
			INTERRUPTED

		}

	}

	/**
	 * A hold's end by release.
	 *
	 * @param key the lock's key, without the registry's prefix
	 * @param name the lock's logical name, empty when it has none
	 * @param held how long the hold lasted
	 * @param lost whether the hold had been lost before it was released; a release that
	 * could not reach Redis ends the hold all the same (its key ends with its lease) and
	 * counts as released
	 */
	record Release(String key, String name, Duration held, boolean lost) {

	}

	/**
	 * One renewal of a hold's lease.
	 *
	 * @param key the lock's key, without the registry's prefix
	 * @param name the lock's logical name, empty when it has none
	 * @param renewed whether the lease was extended; {@code false} when Redis could not
	 * be reached (a renewal that finds the key taken is reported as a lost lock)
	 */
	record Renewal(String key, String name, boolean renewed) {

	}

	/**
	 * A Redlock node's failure in one call.
	 *
	 * @param node the node's name, {@code host:port}
	 * @param timedOut whether it had not answered when the node timeout ended; otherwise
	 * it answered with an error or could not be reached
	 * @param cause what went wrong, described without credentials
	 */
	record NodeFailure(String node, boolean timedOut, String cause) {

	}

}
