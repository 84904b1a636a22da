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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.engine.Waits.UnreachableRedis;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.Lease;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The time rules of a key's slot, on a clock the test moves ({@link ManualClock}): a
 * claim gives up at its deadline and not before, the first in line takes the slot from an
 * owner whose lease has passed though it never let go, one watch on the owner's lease
 * serves the line across hand-overs, and a Redis found unreachable sends the line away.
 * No Redis, no threads, no real time.
 *
 * @author setnx-lock authors
 */
class SlotClockTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private final ManualClock clock = new ManualClock();

	private final AtomicReference<Throwable> unreachable = new AtomicReference<>();

	private final KeyState state = new KeyStates(this.unreachable::get, this.clock).retain("lock:k");

	@Test
	void aClaimGivesUpAtItsDeadlineNotBeforeAndTheLineBehindItStays() {
		hold("owner");
		CompletableFuture<SlotTurn> impatient = claim("impatient", Duration.ofSeconds(5));
		CompletableFuture<SlotTurn> patient = claim("patient", Duration.ofSeconds(60));
		this.clock.advance(Duration.ofMillis(4999));
		assertThat(impatient).isNotDone();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(impatient).isCompletedWithValue(null);
		assertThat(patient).isNotDone();
		this.state.released("owner", KeyState.NOT_ANNOUNCED);
		assertThat(patient).isCompletedWithValueMatching(Objects::nonNull, "granted");
	}

	@Test
	void theFirstInLineTakesTheSlotOnceTheOwnersLeaseHasPassedThoughTheOwnerNeverLetGo() {
		Hold owner = hold("owner");
		CompletableFuture<SlotTurn> first = claim("first", null);
		CompletableFuture<SlotTurn> second = claim("second", null);
		this.clock.advance(Duration.ofNanos(owner.lease().deadlineNanos() - this.clock.read() - 1));
		assertThat(first).isNotDone();
		this.clock.advance(Duration.ofNanos(1));
		assertThat(first).isCompletedWithValueMatching(Objects::nonNull, "granted");
		// Only the first in line looks at the owner's lease; the others wait their turn.
		assertThat(second).isNotDone();
		assertThat(this.state.slotWaiters()).isOne();
	}

	@Test
	void oneWatchOnTheOwnersLeaseServesTheLineAcrossHandOvers() {
		hold("owner");
		CompletableFuture<SlotTurn> first = claim("first", null);
		CompletableFuture<SlotTurn> second = claim("second", null);
		assertThat(this.clock.schedules()).isOne();
		this.clock.advance(Duration.ofSeconds(10));
		this.state.released("owner", KeyState.NOT_ANNOUNCED);
		assertThat(first).isCompletedWithValueMatching(Objects::nonNull, "granted");
		hold("first");
		// The new owner's lease ends later than the watch already set: none is added.
		assertThat(this.clock.schedules()).isOne();
		// The watch comes due at the old lease's end, finds the new owner's lease
		// running,
		// and watches that one.
		this.clock.advance(Duration.ofSeconds(20));
		assertThat(second).isNotDone();
		assertThat(this.clock.schedules()).isEqualTo(2);
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(second).isCompletedWithValueMatching(Objects::nonNull, "granted");
	}

	@Test
	void aRedisFoundUnreachableSendsTheWholeLineAwayWithTheEvidence() {
		hold("owner");
		CompletableFuture<SlotTurn> first = claim("first", Duration.ofSeconds(60));
		CompletableFuture<SlotTurn> second = claim("second", null);
		IllegalStateException evidence = new IllegalStateException("connection refused");
		this.unreachable.set(evidence);
		this.state.slot.redisUnreachable();
		assertThat(first).isCompletedExceptionally();
		assertThat(second).isCompletedExceptionally();
		assertThat(first.handle((granted, failure) -> failure).join()).isInstanceOf(UnreachableRedis.class)
			.hasCause(evidence);
		assertThat(this.state.slotWaiters()).isZero();
	}

	/**
	 * Make an owner the slot's owner with a hold of the registry's lease, sent now.
	 */
	private Hold hold(Object owner) {
		if (this.state.slot.waiters() == 0 && this.state.holds().isEmpty()) {
			assertThat(claim(owner, Duration.ZERO)).isCompletedWithValueMatching(Objects::nonNull, "granted");
		}
		Hold hold = new Hold(owner, LockKey.of("lock:", "k"), "", this.state,
				new Lease("token-" + owner, Lease.NOT_DRAWN, this.clock.read(), LEASE.toMillis()), true,
				this.clock.read());
		this.state.acquired(owner, hold);
		return hold;
	}

	/**
	 * Claim the slot with a wait, or none ({@code null}).
	 */
	private CompletableFuture<SlotTurn> claim(Object owner, Duration wait) {
		long deadline = (wait != null) ? this.clock.read() + wait.toNanos() : Waits.NO_DEADLINE;
		return this.state.slot.claimAsync(owner, deadline, false, this.clock);
	}

}
