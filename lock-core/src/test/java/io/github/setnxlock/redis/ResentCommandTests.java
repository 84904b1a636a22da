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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.redis.timestamp.TimestampLockCommands;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lettuce sends a command again when its connection broke before the answer came (its
 * default, at-least-once): Redis then runs it twice. Every lock command must mean the
 * same the second time: an acquisition that finds its own owner token has acquired, and a
 * release that finds the key gone, or taken by another client after the first run deleted
 * it, is no loss. A proxy passes the command on and closes the connection instead of
 * passing its answer back, which is what makes the client send it again.
 *
 * @author setnx-lock authors
 */
class ResentCommandTests {

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void anAcquisitionSentAgainAfterItsAnswerWasLostHasAcquired(LockProtocol protocol) throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						settings(protocol), List.of(listener(losses)));
				TestClient other = new TestClient(server, settings(protocol))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("resent-acquire");
			proxy.loseRepliesTo(acquisition(protocol), 1);
			assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
			assertThat(proxy.lostReplies()).isEqualTo(1);
			assertThat(client.redis.hasKey("lock:resent-acquire")).isTrue();
			assertThat(other.registry.obtain("resent-acquire").tryLock()).isFalse();
			lock.unlock();
			assertThat(client.redis.hasKey("lock:resent-acquire")).isFalse();
			assertThat(other.registry.obtain("resent-acquire").tryLock()).isTrue();
			assertThat(losses).isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aReleaseSentAgainAfterItsAnswerWasLostIsNoLoss(LockProtocol protocol) throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						settings(protocol), List.of(listener(losses)))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("resent-release");
			lock.lock();
			proxy.loseRepliesTo(release(protocol), 1);
			lock.unlock();
			assertThat(proxy.lostReplies()).isEqualTo(1);
			assertThat(client.redis.hasKey("lock:resent-release")).isFalse();
			assertThat(losses).isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aReleaseSentAgainAfterAnotherClientTookTheKeyIsNoLossAndLeavesItsKey(LockProtocol protocol) throws Exception {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient client = new TestClient(RedisConnections.create(proxy, Duration.ofSeconds(5)),
						settings(protocol), List.of(listener(losses)));
				TestClient other = new TestClient(server, settings(protocol))) {
			warmUp(client);
			LeasedLock lock = client.registry.obtain("resent-release-taken");
			LeasedLock taken = other.registry.obtain("resent-release-taken");
			ExecutorService holder = Executors.newSingleThreadExecutor();
			try {
				holder.submit(lock::lock).get(5, TimeUnit.SECONDS);
				// The first run deletes the key; its answer is lost, and the client
				// cannot
				// reconnect until another client has taken the key.
				proxy.loseRepliesTo(release(protocol), 1, true);
				Future<?> unlocked = holder.submit(lock::unlock);
				await().atMost(Duration.ofSeconds(5)).until(() -> proxy.lostReplies() == 1);
				assertThat(taken.tryLock(1, TimeUnit.SECONDS)).isTrue();
				proxy.restore();
				unlocked.get(10, TimeUnit.SECONDS);
			}
			finally {
				holder.shutdownNow();
			}
			assertThat(losses).isEmpty();
			// The second run found the other client's key, and left it.
			assertThat(taken.isHeldByCurrentThread()).isTrue();
			assertThat(other.redis.hasKey("lock:resent-release-taken")).isTrue();
			taken.unlock();
		}
	}

	private static void warmUp(TestClient client) throws InterruptedException {
		// The connection made and the scripts loaded, so that the lost answer is the
		// command's, not a handshake's or a NOSCRIPT's.
		LeasedLock warm = client.registry.obtain("warm-up");
		warm.lock();
		warm.fencingToken();
		warm.unlock();
	}

	private static String acquisition(LockProtocol protocol) {
		// The token protocol's first step is a plain SET NX PX.
		return (protocol == LockProtocol.TOKEN) ? "\r\nSET\r\n" : TimestampLockCommands.ACQUIRE.sha1();
	}

	private static String release(LockProtocol protocol) {
		return (protocol == LockProtocol.TOKEN) ? TokenLockCommands.RELEASE.sha1()
				: TimestampLockCommands.RELEASE.sha1();
	}

	private static LockListener listener(List<LockLostEvent> losses) {
		return new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				losses.add(event);
			}

		};
	}

	private static SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).timestampUnit(TimestampUnit.MILLISECONDS).build();
	}

}
