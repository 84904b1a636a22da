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

package io.github.setnxlock.redis.engine;

import java.time.Duration;

/**
 * What the watchdog's tick makes of one hold at a given time, apart from doing it (see
 * {@link LeaseRenewer}): a lease is due once a third of it has passed since it was last
 * sent, and leases a sixth used or more go along with a due one, so that the holds of a
 * registry share their round trips.
 *
 * @param dueNanos how old a lease may get before it is renewed
 * @param periodNanos the tick, half of {@code dueNanos}: leases at least this old go
 * along
 * @param maxHold how long renewals go on, or {@code null} for as long as the hold
 * @author setnx-lock authors
 */
record RenewalSchedule(long dueNanos, long periodNanos, Duration maxHold) {

	/**
	 * The schedule of a registry's lease.
	 * @param lease the lease holds are renewed for
	 * @param maxHold how long renewals go on, or {@code null}
	 * @return the schedule
	 */
	static RenewalSchedule of(Duration lease, Duration maxHold) {
		long due = Math.max(2, lease.toNanos() / 3);
		return new RenewalSchedule(due, due / 2, maxHold);
	}

	/**
	 * Look at a hold.
	 * @param hold the hold
	 * @param nowNanos the time of the tick
	 * @return what to do with it
	 */
	Look look(Hold hold, long nowNanos) {
		if (hold.isReleasing()) {
			return Look.FORGET;
		}
		if (!hold.ownerAlive()) {
			return Look.ABANDONED;
		}
		if (hold.hasEnded() || !hold.renewedUntilLost()) {
			// Lost already, or a lease nobody renews: only watched for an owner that dies
			// without unlocking.
			return Look.WATCH_OWNER;
		}
		if (hold.isLost(nowNanos)) {
			return Look.LOST;
		}
		if (this.maxHold != null && nowNanos - hold.acquiredNanos >= this.maxHold.toNanos()) {
			return Look.CAP;
		}
		long age = nowNanos - hold.lease().sentNanos();
		return (age >= this.dueNanos) ? Look.DUE : (age >= this.periodNanos) ? Look.ALONG : Look.FRESH;
	}

	/**
	 * What a tick does with a hold.
	 */
	enum Look {

		/** Its owner is releasing it, and cleans up after it: stop watching. */
		FORGET,

		/** Its owner thread died without releasing it: drop it, warn. */
		ABANDONED,

		/** Nothing to renew; watched only for an owner that dies. */
		WATCH_OWNER,

		/** Past its deadline without a renewal that came back: lost. */
		LOST,

		/** Past the hold limit: no more renewals, it ends with its lease. */
		CAP,

		/** A third of the lease or more used: a batch goes out for it. */
		DUE,

		/** A sixth or more used: renewed along with a due one, if there is one. */
		ALONG,

		/** Renewed recently: nothing to do. */
		FRESH

	}

}
