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
package io.github.setnxlock.faults;

import java.time.Clock;
import java.time.Duration;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.redis.TimestampUnit;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client whose clock is off by more than the lease. Under the timestamp protocol with
 * {@code timestamp.clock=local}, the documented pattern's own rule, each client judges
 * expiry by its own clock, and mutual exclusion is lost: a client whose clock runs ahead
 * takes a live lock over, and one whose clock runs behind writes expiries that the others
 * take as long past. Fencing tokens still tell the holders apart. With
 * {@code timestamp.clock=redis} (the default) and with the token protocol, the same
 * skewed client changes nothing.
 *
 * @author setnx-lock authors
 */
class ClockSkewTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private static final Duration SKEW = LEASE.multipliedBy(3);

	private RedisServer server;

	@BeforeEach
	void startRedis() {
		this.server = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		this.server.close();
	}

	private FaultClient client(LockProtocol protocol, TimestampClock clock, Duration offset) {
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.timestampClock(clock)
			.localClock(Clock.offset(Clock.systemUTC(), offset))
			.leaseTime(LEASE)
			.build();
		return new FaultClient(RedisConnections.create(this.server, Duration.ofSeconds(2)), settings);
	}

	@Test
	void underTheLocalClockAClientAheadTakesOverALiveLock() throws Exception {
		assertTakenOverWhileHeld(Duration.ZERO, SKEW);
	}

	@Test
	void underTheLocalClockAClientBehindHoldsALockOthersTakeOver() throws Exception {
		assertTakenOverWhileHeld(SKEW.negated(), Duration.ZERO);
	}

	private void assertTakenOverWhileHeld(Duration holderOffset, Duration takerOffset) throws Exception {
		try (FaultClient holding = client(LockProtocol.TIMESTAMP, TimestampClock.LOCAL, holderOffset);
				FaultClient taking = client(LockProtocol.TIMESTAMP, TimestampClock.LOCAL, takerOffset)) {
			WatchfulHolder holder = WatchfulHolder.start(holding.registry.obtain("skewed"));
			LeasedLock taker = taking.registry.obtain("skewed");
			assertThat(taker.tryLock(Duration.ofMillis(500))).as("took a live lock").isTrue();
			long tookOver = FaultClient.micros();
			try {
				// The holder looks every millisecond; its next renewal is a third of a
				// lease away, so it still believes it holds the lock when it looks again.
				await("the holder still believing it held the lock after the takeover").atMost(Duration.ofSeconds(5))
					.pollInterval(Duration.ofMillis(1))
					.until(() -> holder.lastHeld() > tookOver);
				assertThat(taker.fencingToken()).isGreaterThan(holder.token());
				// The holder's next renewal finds the taker's value at the key. (A
				// release that finds no key, once the taker has released, is no loss by
				// itself: the holder learns of the takeover from its renewal.)
				await("the holder learning of the takeover").atMost(Duration.ofSeconds(5))
					.until(() -> holder.stoppedBelieving() > 0);
			}
			finally {
				taker.unlock();
			}
			assertThat(holder.unlock()).isEqualTo("lost");
		}
	}

	@Test
	void underTheRedisClockTheSameSkewChangesNothing() throws Exception {
		assertSkewChangesNothing(LockProtocol.TIMESTAMP, TimestampClock.REDIS);
	}

	@Test
	void underTheTokenProtocolTheSameSkewChangesNothing() throws Exception {
		assertSkewChangesNothing(LockProtocol.TOKEN, TimestampClock.LOCAL);
	}

	private void assertSkewChangesNothing(LockProtocol protocol, TimestampClock clock) throws Exception {
		for (Duration offset : new Duration[] { SKEW, SKEW.negated() }) {
			try (FaultClient honest = client(protocol, clock, Duration.ZERO);
					FaultClient skewed = client(protocol, clock, offset)) {
				// Each holds in turn while the other tries for several leases.
				for (FaultClient[] pair : new FaultClient[][] { { honest, skewed }, { skewed, honest } }) {
					WatchfulHolder holder = WatchfulHolder.start(pair[0].registry.obtain("skewed"));
					LeasedLock other = pair[1].registry.obtain("skewed");
					assertThat(other.tryLock(LEASE.multipliedBy(2))).as("offset %s: took a held lock", offset)
						.isFalse();
					assertThat(holder.stoppedBelieving()).isZero();
					assertThat(holder.unlock()).isEqualTo("ok");
				}
			}
		}
	}

}
