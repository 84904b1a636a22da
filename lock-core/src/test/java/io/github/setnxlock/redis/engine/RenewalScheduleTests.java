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

import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.redis.engine.HoldWatch.RenewalSchedule;
import io.github.setnxlock.redis.engine.HoldWatch.RenewalSchedule.Look;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog's schedule ({@link RenewalSchedule}), on times the test gives: a lease of
 * 30 s is renewed from 10 s on, goes along with another's renewal from 5 s on, is lost at
 * its deadline without a renewal; a lease nobody renews is only watched; the hold limit
 * stops renewals; a hold being released is forgotten, and one whose thread died is
 * dropped.
 *
 * @author setnx-lock authors
 */
class RenewalScheduleTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long SENT = 1_000_000_000_000L;

	private final RenewalSchedule schedule = RenewalSchedule.of(LEASE, Duration.ofMinutes(1));

	private final KeyState state = new KeyStates().retain("lock:k");

	@Test
	void aRenewedLeaseGoesAlongFromASixthAndIsDueFromAThirdUntilItsDeadline() {
		Hold hold = hold(Thread.currentThread(), true, SENT);
		assertThat(this.schedule.look(hold, SENT + seconds(5) - 1)).isEqualTo(Look.FRESH);
		assertThat(this.schedule.look(hold, SENT + seconds(5))).isEqualTo(Look.ALONG);
		assertThat(this.schedule.look(hold, SENT + seconds(10) - 1)).isEqualTo(Look.ALONG);
		assertThat(this.schedule.look(hold, SENT + seconds(10))).isEqualTo(Look.DUE);
		assertThat(this.schedule.look(hold, hold.lease().deadlineNanos() - 1)).isEqualTo(Look.DUE);
		assertThat(this.schedule.look(hold, hold.lease().deadlineNanos())).isEqualTo(Look.LOST);
	}

	@Test
	void aLeaseNobodyRenewsIsOnlyWatchedForItsOwner() {
		Hold hold = hold(Thread.currentThread(), false, SENT);
		assertThat(this.schedule.look(hold, SENT + seconds(20))).isEqualTo(Look.WATCH_OWNER);
		assertThat(this.schedule.look(hold, SENT + seconds(40))).isEqualTo(Look.WATCH_OWNER);
	}

	@Test
	void renewalsStopAtTheHoldLimitCountedFromTheAcquisition() {
		long renewedAt = SENT + seconds(55);
		Hold hold = new Hold(Thread.currentThread(), LockKey.of("lock:", "k"), "", this.state,
				new Lease("token", Lease.NOT_DRAWN, renewedAt, LEASE.toMillis()), true, SENT);
		assertThat(this.schedule.look(hold, SENT + seconds(60) - 1)).isEqualTo(Look.FRESH);
		assertThat(this.schedule.look(hold, SENT + seconds(60))).isEqualTo(Look.CAP);
		assertThat(RenewalSchedule.of(LEASE, null).look(hold, SENT + seconds(70))).isEqualTo(Look.DUE);
	}

	@Test
	void aHoldBeingReleasedIsForgottenAndALostOneOnlyWatched() {
		Hold releasing = hold(Thread.currentThread(), true, SENT);
		assertThat(releasing.beginRelease()).isTrue();
		assertThat(this.schedule.look(releasing, SENT + seconds(20))).isEqualTo(Look.FORGET);
		Hold lost = hold(Thread.currentThread(), true, SENT);
		assertThat(lost.markLost(LockLostEvent.Reason.RENEWAL_REJECTED)).isTrue();
		assertThat(this.schedule.look(lost, SENT + seconds(20))).isEqualTo(Look.WATCH_OWNER);
	}

	@Test
	void aHoldWhoseThreadDiedIsDroppedWhateverItsLease() throws InterruptedException {
		Thread dead = new Thread(() -> {
		}, "died-holding");
		dead.start();
		dead.join();
		assertThat(this.schedule.look(hold(dead, true, SENT), SENT + 1)).isEqualTo(Look.ABANDONED);
		assertThat(this.schedule.look(hold(dead, false, SENT), SENT + 1)).isEqualTo(Look.ABANDONED);
		// Owners that are not threads never die.
		assertThat(this.schedule.look(hold(new Object(), true, SENT), SENT + 1)).isEqualTo(Look.FRESH);
	}

	private Hold hold(Object owner, boolean renewed, long sentNanos) {
		return new Hold(owner, LockKey.of("lock:", "k"), "", this.state,
				new Lease("token", Lease.NOT_DRAWN, sentNanos, LEASE.toMillis()), renewed, sentNanos);
	}

	private static long seconds(long seconds) {
		return Duration.ofSeconds(seconds).toNanos();
	}

}
