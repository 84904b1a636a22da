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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquisition that fails on the client (the command timeout, or the caller's own wait
 * ending first) while its command is already on its way to Redis never leaves the key
 * behind: Redis is frozen (SIGSTOP) with the acquisition's {@code SET} in its socket
 * buffer, the caller gives up, and when Redis goes on and runs that {@code SET} late, a
 * compare-and-delete with the same owner token follows, so another client gets the lock
 * at once instead of after the attempt's ten-minute lease.
 * <p>
 * The test waits for what Redis did, not for time to pass: it listens to the keyspace
 * events of the lock's key and waits for the late {@code set} and the {@code del} that
 * undoes it.
 *
 * @author setnx-lock authors
 */
class AbandonedAcquisitionTests {

	private static final String KEY = "left";

	/** The key under the default prefix. */
	private static final String REDIS_KEY = "lock:" + KEY;

	/** Long enough that a key left behind would outlive any test. */
	private static final Duration LEASE = Duration.ofMinutes(10);

	/** How long Redis stays frozen, counted from the pause. */
	private static final Duration PAUSE = Duration.ofMillis(700);

	/** How soon after Redis goes on the late acquisition must be undone. */
	private static final Duration UNDONE_WITHIN = Duration.ofSeconds(3);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<String> events = new CopyOnWriteArrayList<>();

	private RedisServer server;

	private RedisClient subscriber;

	private StatefulRedisPubSubConnection<String, String> keyspace;

	static Stream<Arguments> protocols() {
		return Stream.of(Arguments.of("token", SetnxLockSettings.builder().protocol(LockProtocol.TOKEN).build()),
				Arguments.of("timestamp, milliseconds",
						SetnxLockSettings.builder()
							.protocol(LockProtocol.TIMESTAMP)
							.timestampUnit(TimestampUnit.MILLISECONDS)
							.build()));
	}

	@BeforeEach
	void listenToTheLockKeysEvents() {
		this.server = redis.server();
		this.server.execute("CONFIG", "SET", "notify-keyspace-events", "KA");
		this.subscriber = RedisClient.create(RedisURI.create(this.server.host(), this.server.port()));
		this.keyspace = this.subscriber.connectPubSub();
		this.keyspace.addListener(new RedisPubSubAdapter<>() {

			@Override
			public void message(String channel, String message) {
				AbandonedAcquisitionTests.this.events.add(message);
			}

		});
		// Answered once Redis has the subscription: no event of the test is missed.
		this.keyspace.sync().subscribe("__keyspace@0__:" + REDIS_KEY);
	}

	@AfterEach
	void stopListening() {
		this.keyspace.close();
		this.subscriber.shutdown();
		this.server.execute("CONFIG", "SET", "notify-keyspace-events", "");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("protocols")
	void anAcquisitionThatTheCommandTimeoutEndedIsUndoneWhenItsSetRunsLate(String protocol, SetnxLockSettings settings)
			throws InterruptedException {
		// The wait (5 s) outlasts the command timeout (200 ms): the client's timeout is
		// what fails the call, with the SET sent.
		attemptWhileRedisIsFrozen(settings, Duration.ofMillis(200),
				(lock) -> assertThatExceptionOfType(LockAccessException.class)
					.isThrownBy(() -> lock.tryLock(Duration.ofSeconds(5), LEASE))
					.withMessageContaining("'" + KEY + "'")
					.withMessageContaining("may still reach Redis"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("protocols")
	void anAcquisitionWhoseWaitEndedFirstIsUndoneWhenItsSetRunsLate(String protocol, SetnxLockSettings settings)
			throws InterruptedException {
		attemptWhileRedisIsFrozen(settings, Duration.ofSeconds(5), (lock) -> {
			long start = System.nanoTime();
			boolean acquired;
			try {
				acquired = lock.tryLock(Duration.ofMillis(300), LEASE);
			}
			catch (LockAccessException ex) {
				// Redis did not answer within the wait: as good as false here.
				assertThat(ex).hasMessageContaining("'" + KEY + "'");
				acquired = false;
			}
			assertThat(acquired).isFalse();
			// Ended by the caller's wait, not by the command timeout (5 s).
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
		});
	}

	/**
	 * Run an acquisition attempt of a client with the given command timeout while Redis
	 * is frozen, let Redis go on, and check that the attempt, which Redis then runs late,
	 * is undone and leaves the lock to another client at once.
	 */
	private void attemptWhileRedisIsFrozen(SetnxLockSettings settings, Duration commandTimeout, Attempt attempt)
			throws InterruptedException {
		try (TestClient attempting = new TestClient(this.server, settings, commandTimeout);
				TestClient other = new TestClient(this.server, settings, Duration.ofSeconds(2))) {
			warmUp(attempting);
			warmUp(other);
			LeasedLock lock = attempting.registry.obtain(KEY);
			long pausedAt = System.nanoTime();
			this.server.pause();
			try {
				attempt.run(lock);
				stayPausedUntilTheFaultEnds(pausedAt);
			}
			finally {
				this.server.resume();
			}
			awaitTheLateAcquisitionUndone();
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertTheOtherClientGetsTheLockAtOnce(other);
		}
	}

	/**
	 * Connect the client and load its scripts, on another key, so that the attempt under
	 * test is one command sent on an open connection.
	 */
	private static void warmUp(TestClient client) {
		LeasedLock warmUp = client.registry.obtain("warm-up");
		assertThat(warmUp.tryLock()).isTrue();
		warmUp.unlock();
	}

	/**
	 * Keep Redis frozen for the whole fault however soon the call under test gave up, so
	 * that the late {@code SET} runs well after the client stopped waiting for it. This
	 * is the length of the fault, not a wait for another thread.
	 */
	private static void stayPausedUntilTheFaultEnds(long pausedAt) throws InterruptedException {
		long left = PAUSE.toNanos() - (System.nanoTime() - pausedAt);
		if (left > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	/**
	 * Wait until Redis has run the late acquisition's {@code SET} and then a {@code DEL}
	 * of the key, and the key is gone: without the {@code set} event the key could merely
	 * not have been written yet.
	 */
	private void awaitTheLateAcquisitionUndone() {
		await("the late acquisition of " + REDIS_KEY + " undone").atMost(UNDONE_WITHIN)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> {
				assertThat(this.server.execute("EXISTS", REDIS_KEY))
					.as(() -> "EXISTS " + REDIS_KEY + " (PTTL " + this.server.execute("PTTL", REDIS_KEY)
							+ " ms, keyspace events " + this.events + ")")
					.isEqualTo(0L);
				assertThat(this.events).as("keyspace events of %s", REDIS_KEY).containsSubsequence("set", "del");
			});
	}

	private static void assertTheOtherClientGetsTheLockAtOnce(TestClient other) throws InterruptedException {
		LeasedLock lock = other.registry.obtain(KEY);
		assertThat(lock.tryLock(Duration.ofSeconds(2))).isTrue();
		lock.unlock();
	}

	/**
	 * An acquisition attempt and what it must come to.
	 */
	@FunctionalInterface
	private interface Attempt {

		void run(LeasedLock lock) throws InterruptedException;

	}

}
