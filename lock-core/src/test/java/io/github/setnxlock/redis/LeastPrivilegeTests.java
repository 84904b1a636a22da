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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.timestamp.TimestampLockCommands;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Redis ACL rules of {@link LeastPrivilegeUser}, as docs/topologies.md lists them,
 * are enough for every path of the library, and each one of them is needed: without it
 * Redis refuses a command the library sends, and the caller hears it as a clear error
 * rather than a hang or a wrong answer. The contract suite runs as that user in
 * {@link RedisContractTests} (its variants as a least-privilege ACL user).
 * <p>
 * The registries sign in as the user; only setting up and checking Redis goes through the
 * server's own connection.
 *
 * @author setnx-lock authors
 */
class LeastPrivilegeTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static final SetnxLockSettings TOKEN = SetnxLockSettings.builder().protocol(LockProtocol.TOKEN).build();

	private static final SetnxLockSettings TIMESTAMP = SetnxLockSettings.builder()
		.protocol(LockProtocol.TIMESTAMP)
		.timestampUnit(TimestampUnit.MILLISECONDS)
		.build();

	private static final SetnxLockSettings NOTIFIED = TIMESTAMP.toBuilder().keyspaceNotifications(true).build();

	private final List<TestClient> clients = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void close() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.clients.forEach(TestClient::close);
	}

	/**
	 * Create the user with the rules for the settings, less the given one, and return a
	 * client signed in as the user. The server forgets the scripts first, so that the
	 * first call sends its script whole and the health check loads them.
	 */
	private TestClient userWithout(String missing, SetnxLockSettings settings) {
		redis.server().execute("CONFIG", "SET", "notify-keyspace-events", "Kg");
		List<String> rules = new ArrayList<>(LeastPrivilegeUser.rules(settings));
		if (missing != null) {
			assertThat(rules.remove(missing)).as(missing + " is one of the rules").isTrue();
		}
		LeastPrivilegeUser.create(redis.server(), rules);
		TestClient client = user(settings);
		// The scripts the registry loads in the background when it is made are forgotten
		// once it is done, so that each call sends (or loads) what it needs itself.
		client.registry.warmedUp().join();
		redis.server().execute("SCRIPT", "FLUSH");
		return client;
	}

	private TestClient user(SetnxLockSettings settings) {
		TestClient client = LeastPrivilegeUser.client(redis.server(), settings);
		this.clients.add(client);
		return client;
	}

	static Stream<Arguments> settings() {
		return Stream.of(Arguments.of("token", TOKEN), Arguments.of("timestamp with keyspace notifications", NOTIFIED));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("settings")
	void everyPathOfTheLibraryWorksAsTheUserAndNothingIsRefused(String description, SetnxLockSettings settings)
			throws Exception {
		// Renewed every half second: long enough to survive a busy machine's delays.
		TestClient client = userWithout(null, settings.toBuilder().leaseTime(Duration.ofMillis(1500)).build());
		Map<String, Object> health = client.registry.operations().checkHealth();
		boolean token = settings.protocol() == LockProtocol.TOKEN;
		assertThat(health).containsEntry("scripts",
				(token ? TokenLockCommands.SCRIPTS : TimestampLockCommands.SCRIPTS).size()
						+ LockOperations.SCRIPTS.size());
		assertThat(redis.server()
			.execute("SCRIPT", "EXISTS", (token ? TokenLockCommands.ACQUIRE : TimestampLockCommands.ACQUIRE).sha1()))
			.isEqualTo(List.of(1L));
		LeasedLock first = client.registry.obtain("first");
		LeasedLock second = client.registry.obtain("second");
		first.lock();
		second.lock();
		// Forgotten scripts make the renewal pipeline load its script before it resends.
		redis.server().execute("SCRIPT", "FLUSH");
		long renewals = client.registry.engine().stats().renewals();
		await("both holds renewed after the flush").atMost(Duration.ofSeconds(10))
			.until(() -> client.registry.engine().stats().renewals() >= renewals + 2);
		assertThat(first.isHeldByCurrentThread()).isTrue();
		assertThat(second.isHeldByCurrentThread()).isTrue();
		assertThat(first.isLocked()).isTrue();
		assertThat(client.registry.operations().inspect("first").held()).isTrue();
		assertThat(client.registry.operations().inspect("nobody").held()).isFalse();
		TestClient other = user(settings);
		Future<Boolean> waiter = this.threads.submit(() -> {
			LeasedLock lock = other.registry.obtain("first");
			boolean acquired = lock.tryLock(Duration.ofSeconds(10));
			lock.unlock();
			return acquired;
		});
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "listening".equals(other.registry.operations().checkHealth().get("releaseMessages")));
		Handshakes.awaitWaiterOnRedis(other.registry, "lock:first");
		first.unlockKeepingFor(Duration.ofMillis(200));
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
		// A release that a waiter marked (token protocol), and so announces.
		LeasedLock third = client.registry.obtain("third");
		third.lock();
		Future<Boolean> awaited = this.threads.submit(() -> {
			LeasedLock lock = other.registry.obtain("third");
			boolean acquired = lock.tryLock(Duration.ofSeconds(10));
			lock.unlock();
			return acquired;
		});
		if (settings.protocol() == LockProtocol.TOKEN) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> String.valueOf(redis.server().execute("GET", "lock:third")).endsWith("!"));
		}
		third.unlock();
		assertThat(awaited.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(client.registry.operations().forceRelease("second")).isTrue();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(second::unlock);
		for (TestClient each : this.clients) {
			each.close();
		}
		this.clients.clear();
		assertThat(LeastPrivilegeUser.refusals(redis.server())).as("refused by Redis").isEmpty();
	}

	/**
	 * What a lock call needs a right for.
	 */
	enum Use {

		/**
		 * Acquire a free key and draw its fencing token (the scripts are not loaded yet:
		 * they are sent whole). The token protocol draws in a call of its own; a refused
		 * draw leaves the hold, which is released.
		 */
		ACQUIRE,

		/**
		 * Acquire a free key with a <code>}</code> and no hash tag, and draw its fencing
		 * token.
		 */
		ACQUIRE_ODD_KEY,

		/** Try to acquire a key that someone else holds. */
		CONTEND,

		/** Try to acquire a key that holds another Redis type. */
		CONTEND_OTHER_TYPE,

		/** Release a held key. */
		RELEASE,

		/** Release a held key that a waiter in another registry waits for. */
		RELEASE_AWAITED,

		/** Release a held key, keeping it for a while. */
		RELEASE_KEEPING,

		/** Ask whether a key is held. */
		IS_LOCKED,

		/** Check health (the scripts are not loaded yet: it loads them). */
		HEALTH

	}

	static Stream<Arguments> rights() {
		List<Arguments> rights = new ArrayList<>();
		// A free key is taken with a plain SET; a held one needs the acquire script.
		rights.add(Arguments.of("+evalsha", TOKEN, Use.CONTEND));
		rights.add(Arguments.of("+eval", TOKEN, Use.CONTEND));
		rights.add(Arguments.of("+script|load", TOKEN, Use.HEALTH));
		rights.add(Arguments.of("+script|exists", TOKEN, Use.HEALTH));
		rights.add(Arguments.of("+exists", TOKEN, Use.IS_LOCKED));
		rights.add(Arguments.of("+type", TOKEN, Use.CONTEND_OTHER_TYPE));
		rights.add(Arguments.of("+pttl", TOKEN, Use.CONTEND));
		rights.add(Arguments.of("~lock:*", TOKEN, Use.ACQUIRE));
		rights.add(Arguments.of("~{lock:*}:fence", TOKEN, Use.ACQUIRE));
		rights.add(Arguments.of("~{*}:fence:lock:*", TOKEN, Use.ACQUIRE_ODD_KEY));
		for (SetnxLockSettings settings : List.of(TOKEN, TIMESTAMP)) {
			// A lock is taken without GET (the fencing draw reads the counter with SET
			// ... GET); a held one is read.
			rights.add(Arguments.of("+get", settings, Use.CONTEND));
			rights.add(Arguments.of("+set", settings, Use.ACQUIRE));
			rights.add(Arguments.of("+time", settings, Use.ACQUIRE));
			rights.add(Arguments.of("+del", settings, Use.RELEASE));
			// Token releases are announced only when a waiter marked the token.
			Use announced = (settings == TOKEN) ? Use.RELEASE_AWAITED : Use.RELEASE;
			rights.add(Arguments.of("+publish", settings, announced));
			rights.add(Arguments.of("&setnx-lock:released", settings, announced));
			rights.add(Arguments.of("+pexpire", settings, Use.RELEASE_KEEPING));
		}
		return rights.stream();
	}

	@ParameterizedTest(name = "without {0}, {1}: {2}")
	@MethodSource("rights")
	void withoutARightTheCallThatNeedsItFailsClearlyAndAtOnce(String missing, SetnxLockSettings settings, Use use)
			throws Exception {
		TestClient client = userWithout(missing, settings);
		String key = (use == Use.ACQUIRE_ODD_KEY) ? "a}b" : "refused";
		LeasedLock lock = client.registry.obtain(key);
		boolean releasing = use == Use.RELEASE || use == Use.RELEASE_AWAITED || use == Use.RELEASE_KEEPING;
		if (releasing) {
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		}
		if (use == Use.RELEASE_AWAITED) {
			// A waiter that gives up leaves its mark on the token.
			LeasedLock waiting = user(settings).registry.obtain(key);
			assertThat(this.threads.submit(() -> waiting.tryLock(Duration.ofMillis(500))).get(10, TimeUnit.SECONDS))
				.isFalse();
			assertThat((String) redis.server().execute("GET", "lock:" + key)).endsWith("!");
		}
		if (use == Use.CONTEND) {
			redis.server().execute("SET", "lock:refused", "another-holders-token", "PX", "30000");
		}
		if (use == Use.CONTEND_OTHER_TYPE) {
			redis.server().execute("HSET", "lock:refused", "field", "value");
		}
		long start = System.nanoTime();
		if (use == Use.HEALTH) {
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(client.registry.operations()::checkHealth)
				.satisfies((ex) -> assertThat(RedisCall.describe(ex)).contains("NOPERM"));
		}
		else {
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> {
				switch (use) {
					case RELEASE, RELEASE_AWAITED -> lock.unlock();
					case RELEASE_KEEPING -> lock.unlockKeepingFor(Duration.ofSeconds(1));
					case IS_LOCKED -> lock.isLocked();
					case ACQUIRE, ACQUIRE_ODD_KEY -> {
						if (lock.tryLock(Duration.ofSeconds(30))) {
							try {
								lock.fencingToken();
							}
							finally {
								lock.unlock();
							}
						}
					}
					// A refusal taken for contention would wait it out.
					default -> lock.tryLock(Duration.ofSeconds(30));
				}
			})
				.withMessageContaining("lock '" + key + "' (Redis key 'lock:" + key + "')")
				// Redis says NOPERM; Valkey's scripts say "no permissions".
				.withMessageMatching("(?s).*(NOPERM|can't|(?i:no permissions)).*")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key));
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		assertThat(LeastPrivilegeUser.refusals(redis.server())).as("refused by Redis").isNotEmpty();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(client.registry.localKeyCount()).isZero();
		// A refused acquisition leaves nothing; a refused release leaves the key to its
		// lease, as when Redis is down.
		boolean contending = use == Use.CONTEND || use == Use.CONTEND_OTHER_TYPE;
		assertThat(redis.server().execute("EXISTS", "lock:" + key)).isEqualTo((releasing || contending) ? 1L : 0L);
	}

	static Stream<Arguments> subscriptionRights() {
		return Stream.of(Arguments.of("+subscribe", TOKEN), Arguments.of("+psubscribe", NOTIFIED),
				Arguments.of("&" + ReleaseMessages.keyspacePattern("lock:"), NOTIFIED));
	}

	@ParameterizedTest(name = "without {0}")
	@MethodSource("subscriptionRights")
	void withoutARightToSubscribeWaitersRecheckAndTheHealthCheckSaysSo(String missing, SetnxLockSettings settings)
			throws Exception {
		TestClient holder = userWithout(missing, settings);
		TestClient waiter = user(settings);
		LeasedLock lock = holder.registry.obtain("unheard");
		lock.lock();
		CountDownLatch waiting = new CountDownLatch(1);
		Future<Boolean> acquired = this.threads.submit(() -> {
			LeasedLock other = waiter.registry.obtain("unheard");
			waiting.countDown();
			boolean result = other.tryLock(Duration.ofSeconds(10));
			other.unlock();
			return result;
		});
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		// The subscription, made on the first wait, is refused: Spring Data Redis logs it
		// at ERROR, the health check shows it, and waiters re-check on a short backoff.
		await().atMost(Duration.ofSeconds(10)).until(() -> !LeastPrivilegeUser.refusals(redis.server()).isEmpty());
		assertThat(waiter.registry.operations().checkHealth()).containsEntry("releaseMessages", "not listening");
		lock.unlock();
		assertThat(acquired.get(10, TimeUnit.SECONDS)).isTrue();
	}

	static Stream<Arguments> closingRights() {
		return Stream.of(Arguments.of("+unsubscribe", TOKEN, "unsubscribe"), Arguments.of("+ping", TOKEN, "ping"),
				Arguments.of("+punsubscribe", NOTIFIED, "punsubscribe"));
	}

	@ParameterizedTest(name = "without {0}")
	@MethodSource("closingRights")
	void withoutARightToEndTheSubscriptionRedisRefusesTheRegistrysClose(String missing, SetnxLockSettings settings,
			String command) throws Exception {
		TestClient client = userWithout(missing, settings);
		// A timestamp, which is also some holder's token under the token protocol.
		String held = Long.toString(System.currentTimeMillis() + 30_000);
		redis.server().execute("SET", "lock:busy", held, "PX", "30000");
		LeasedLock busy = client.registry.obtain("busy");
		assertThat(busy.isLocked()).isTrue();
		assertThat(busy.tryLock()).isFalse();
		// The first wait subscribes.
		assertThat(busy.tryLock(Duration.ofMillis(200))).isFalse();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "listening".equals(client.registry.operations().checkHealth().get("releaseMessages")));
		long start = System.nanoTime();
		client.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(LeastPrivilegeUser.refusals(redis.server()).toString())
				.contains("object, " + command + ","));
	}

}
