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

import java.time.Duration;
import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A renewed hold that is lost says why from what happened, not from where the loss was
 * noticed: a lease too short for Redis's round trip, where every renewal was answered but
 * too late, is told apart from renewals that could not reach Redis at all (failed, or
 * still unanswered at the holder's deadline).
 *
 * @author setnx-lock authors
 */
class LossReasonTests {

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLeaseTooShortForTheRoundTripSaysSo(LockProtocol protocol) throws Exception {
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						settings(protocol, Duration.ofMillis(300)), List.of())) {
			client.redis.hasKey("warm-up");
			// Each way: a round trip of 200 ms and more against a lease of 300 ms.
			proxy.delay(Duration.ofMillis(100));
			LeasedLock lock = client.registry.obtain("short");
			lock.lock();
			await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeldByCurrentThread());
			// At the deadline a renewal may still be out, which could as well be a Redis
			// that does not answer; once it is answered, late, the loss is explained as a
			// lease too short. Told without Redis: unlock() would wait for the slow
			// release.
			await().pollInSameThread()
				.atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::checkHeld)
					.withMessageContaining("is too short")
					.withMessageNotContaining("could not reach Redis"));
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLeaseLostToRedisDownSaysSo(LockProtocol protocol) throws Exception {
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(RedisConnections.create(server, Duration.ofMillis(100)),
						settings(protocol, Duration.ofSeconds(1)), List.of())) {
			LeasedLock lock = client.registry.obtain("down");
			lock.lock();
			server.stop();
			await().pollInSameThread()
				.pollInterval(Duration.ofMillis(1))
				.atMost(Duration.ofSeconds(10))
				.until(() -> !lock.isHeldByCurrentThread());
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::checkHeld)
				.withMessageContaining("could not reach Redis")
				.withMessageNotContaining("too short");
		}
	}

	private static SetnxLockSettings settings(LockProtocol protocol, Duration lease) {
		return SetnxLockSettings.builder()
			.protocol(protocol)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.leaseTime(lease)
			.build();
	}

}
