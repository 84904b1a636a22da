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

package io.github.setnxlock.redis;

import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What fencing tokens assume of the Redis server's clock. A token is the larger of the
 * counter + 1 and the clock in microseconds, so a counter ahead of the clock (a clock
 * stepped back, a failover to a host whose clock is behind) is followed as long as the
 * counter lives; once it is lost as well (a restart without persistence), tokens fall
 * back to the clock and are lower than tokens already handed out, until the clock passes
 * them. A resource that checks tokens then refuses the new holders for that while: it
 * stays safe, not available. docs/guarantees.md says so.
 *
 * @author setnx-lock authors
 */
class FencingClockTests {

	/** How far ahead of the clock the counter is set: a minute. */
	private static final long LEAD_MICROS = 60_000_000L;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aCounterAheadOfTheClockIsFollowedAndOnceLostTokensFallBackToTheClock(LockProtocol protocol) {
		RedisServer server = redis.server();
		SetnxLockSettings settings = SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.build();
		try (TestClient client = new TestClient(server, settings)) {
			String fenceKey = "{lock:ahead}:fence";
			long ahead = clockMicros(server) + LEAD_MICROS;
			server.execute("SET", fenceKey, Long.toString(ahead));
			LeasedLock lock = client.registry.obtain("ahead");
			lock.lock();
			assertThat(lock.fencingToken()).as("the counter followed, not the clock").isEqualTo(ahead + 1);
			lock.unlock();
			lock.lock();
			long last = lock.fencingToken();
			assertThat(last).isEqualTo(ahead + 2);
			lock.unlock();
			// What a restart without persistence does to the counter.
			server.execute("DEL", fenceKey);
			long clock = clockMicros(server);
			lock.lock();
			long fallen = lock.fencingToken();
			lock.unlock();
			assertThat(fallen).as("the clock's reading again").isGreaterThanOrEqualTo(clock).isLessThan(last);
		}
	}

	private static long clockMicros(RedisServer server) {
		List<?> time = (List<?>) server.execute("TIME");
		return Long.parseLong(time.get(0).toString()) * 1_000_000 + Long.parseLong(time.get(1).toString());
	}

}
