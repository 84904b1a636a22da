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

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.assertj.core.api.ThrowableAssertAlternative;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Hostile input, from the caller and from other clients of the same Redis: every bound of
 * the settings and of the lock calls' arguments, garbage at the lock key and at its
 * fencing counter key, and keys that are long or full of characters that mean something
 * to Redis Cluster, to the prefix, to glob patterns or to line-based protocols. Bad
 * arguments fail at once naming the parameter; garbage in Redis is a clear error naming
 * its key, or follows a documented rule, and is never lost. {@link LockFailureTests}
 * covers the simpler cases.
 *
 * @author setnx-lock authors
 */
class HostileInputTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/**
	 * Keys that a careless or hostile caller may pass: hash tag braces in every
	 * arrangement, the prefix's separator, glob characters, white space and line breaks,
	 * NUL, text outside ASCII, and 64 KiB of key.
	 */
	static final List<String> UNUSUAL_KEYS = List.of("{", "}", "{}", "}{", "{a}", "a{b}c", "{{a}}", "{}{a}", "a}b",
			"a}{b}", "{a", "with space", " leading", "new\nline", "cr\r\nlf", "tab\t", "nul\0", ":", "a:b:c", "lock:",
			"*", "?", "[a-z]", "\\", "ключ", "锁", "😀", "é\u0301", "k".repeat(64 * 1024));

	private final List<TestClient> clients = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void close() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		this.clients.forEach(TestClient::close);
	}

	private TestClient client(SetnxLockSettings settings) {
		TestClient client = new TestClient(redis.server(), settings);
		this.clients.add(client);
		return client;
	}

	private static SetnxLockSettings settings(LockProtocol protocol) {
		return SetnxLockSettings.builder().protocol(protocol).build();
	}

	@Test
	void settingsRejectEveryBadValueNamingItAndKeepThePreviousOne() {
		SetnxLockSettings.Builder builder = SetnxLockSettings.builder();
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(null))
			.withMessage("leaseTime must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(Duration.ZERO))
			.withMessage("leaseTime must be positive, but was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(Duration.ofSeconds(Long.MIN_VALUE)))
			.withMessageStartingWith("leaseTime must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(Duration.ofNanos(999_999)))
			.withMessage("leaseTime must be at least 1ms, but was PT0.000999999S");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(LeaseLimits.MAX.plusNanos(1)))
			.withMessageStartingWith("leaseTime must be at most PT8760H");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.leaseTime(Duration.ofSeconds(Long.MAX_VALUE)))
			.withMessageStartingWith("leaseTime must be at most");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxHold(Duration.ZERO))
			.withMessage("maxHold must be positive, but was PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxHold(Duration.ofMillis(-1)))
			.withMessageStartingWith("maxHold must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxHold(LeaseLimits.MAX.plusDays(1)))
			.withMessageStartingWith("maxHold must be at most");
		assertThatNullPointerException().isThrownBy(() -> builder.keyPrefix(null))
			.withMessage("keyPrefix must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.keyPrefix("locks\uD800:"))
			.withMessage("keyPrefix must be well-formed Unicode, but has a lone surrogate at index 5,"
					+ " which Redis would store as '?'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.releaseChannel(null))
			.withMessage("releaseChannel must not be blank, but was 'null'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.releaseChannel(""))
			.withMessageStartingWith("releaseChannel must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.releaseChannel(" \n"))
			.withMessageStartingWith("releaseChannel must not be blank");
		assertThatNullPointerException().isThrownBy(() -> builder.protocol(null))
			.withMessage("protocol must not be null");
		assertThatNullPointerException().isThrownBy(() -> builder.timestampUnit(null))
			.withMessage("timestampUnit must not be null");
		assertThatNullPointerException().isThrownBy(() -> builder.timestampClock(null))
			.withMessage("timestampClock must not be null");
		assertThatNullPointerException().isThrownBy(() -> builder.localClock(null))
			.withMessage("localClock must not be null");
		SetnxLockSettings unchanged = builder.build();
		assertThat(unchanged.toString()).isEqualTo(SetnxLockSettings.defaults().toString());
		assertThat(unchanged.localClock()).isEqualTo(Clock.systemUTC());
	}

	@Test
	void settingsAcceptTheirBounds() {
		SetnxLockSettings shortest = SetnxLockSettings.builder()
			.leaseTime(Duration.ofMillis(1))
			.maxHold(Duration.ofMillis(1))
			.keyPrefix("")
			.releaseChannel("c")
			.build();
		assertThat(shortest.leaseTime()).isEqualTo(Duration.ofMillis(1));
		assertThat(shortest.maxHold()).isEqualTo(Duration.ofMillis(1));
		assertThat(shortest.keyPrefix()).isEmpty();
		SetnxLockSettings longest = shortest.toBuilder()
			.leaseTime(LeaseLimits.MAX)
			.maxHold(LeaseLimits.MAX)
			.keyPrefix("锁 {app}\n:")
			.build();
		assertThat(longest.leaseTime()).isEqualTo(LeaseLimits.MAX);
		assertThat(longest.maxHold()).isEqualTo(LeaseLimits.MAX);
		assertThat(longest.keyPrefix()).isEqualTo("锁 {app}\n:");
		assertThat(longest.toBuilder().maxHold(null).build().maxHold()).isNull();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theLongestLeaseIsHeldAsAsked(LockProtocol protocol) throws InterruptedException {
		TestClient client = client(settings(protocol));
		LeasedLock lock = client.registry.obtain("year");
		assertThat(lock.tryLock(Duration.ZERO, LeaseLimits.MAX)).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		long ttl = (Long) redis.server().execute("PTTL", "lock:year");
		assertThat(Duration.ofMillis(ttl)).isGreaterThan(LeaseLimits.MAX.minusMinutes(1));
		lock.unlock();
		assertThat(exists("lock:year")).isFalse();
	}

	@Test
	void registryAndLockArgumentsAreCheckedNamingThem() throws InterruptedException {
		TestClient client = client(SetnxLockSettings.defaults());
		StringRedisTemplate template = client.redis;
		SetnxLockSettings defaults = SetnxLockSettings.defaults();
		assertThatNullPointerException().isThrownBy(() -> new SetnxLockRegistry(null, defaults))
			.withMessage("redis must not be null");
		assertThatNullPointerException().isThrownBy(() -> new SetnxLockRegistry(template, null))
			.withMessage("settings must not be null");
		assertThatNullPointerException().isThrownBy(() -> new SetnxLockRegistry(template, defaults, null))
			.withMessage("listeners must not be null");
		SetnxLockRegistry registry = client.registry;
		assertThatNullPointerException().isThrownBy(() -> registry.setObservationRegistry(null))
			.withMessage("observationRegistry must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.obtain("key", null))
			.withMessageStartingWith("Lock name must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.obtain(null, "name"))
			.withMessage("Lock key must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.obtain("\uD800"))
			.withMessageStartingWith("Lock key must be well-formed Unicode, but has a lone surrogate at index 0");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.obtain("a\uDE00\uD83D"))
			.withMessageContaining("lone surrogate at index 1");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.obtain("end\uD83D"))
			.withMessageContaining("lone surrogate at index 3");
		for (String blank : new String[] { null, "", "\n" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> registry.operations().inspect(blank))
				.withMessageStartingWith("Lock key must not be");
			assertThatIllegalArgumentException().isThrownBy(() -> registry.operations().forceRelease(blank))
				.withMessageStartingWith("Lock key must not be");
		}
		LeasedLock lock = registry.obtain("arguments");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(null)).withMessage("wait must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofSeconds(Long.MIN_VALUE)))
			.withMessageStartingWith("wait must not be negative");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofNanos(-1), Duration.ofSeconds(1)))
			.withMessage("wait must not be negative, but was PT-0.000000001S");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, null))
			.withMessage("lease must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> lock.tryLock(Duration.ZERO, LeaseLimits.MAX.plusMillis(1)))
			.withMessageStartingWith("lease must be at most");
		assertThatNullPointerException().isThrownBy(() -> lock.tryLock(1, null)).withMessage("unit must not be null");
		assertThat(redis.server().execute("DBSIZE")).isEqualTo(0L);
		assertThat(registry.localKeyCount()).isZero();
		assertThat(lock.tryLock()).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> lock.unlockKeepingFor(null))
			.withMessage("keep must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.unlockKeepingFor(Duration.ofMillis(-1)))
			.withMessageStartingWith("keep must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.unlockKeepingFor(Duration.ofNanos(1)))
			.withMessageStartingWith("keep must be at least 1ms");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.unlockKeepingFor(LeaseLimits.MAX.plusSeconds(1)))
			.withMessageStartingWith("keep must be at most");
		// A rejected argument changes nothing: the hold is still there to release.
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(exists("lock:arguments")).isFalse();
	}

	@Test
	void hugeWaitsMeanNoLimitAndStillEndWhenTheHolderReleases() throws Exception {
		TestClient client = client(SetnxLockSettings.defaults());
		TestClient other = client(SetnxLockSettings.defaults());
		LeasedLock lock = client.registry.obtain("forever");
		assertThat(lock.tryLock(Duration.ofSeconds(Long.MAX_VALUE))).isTrue();
		assertThat(lock.tryLock(Long.MAX_VALUE, TimeUnit.DAYS)).isTrue();
		assertThat(lock.tryLock(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), LeaseLimits.MAX)).isTrue();
		CountDownLatch waiting = new CountDownLatch(1);
		// Nanosecond deadlines of such waits overflow; they must not end the wait at
		// once.
		Future<Boolean> waiter = this.threads.submit(() -> {
			LeasedLock contender = other.registry.obtain("forever");
			waiting.countDown();
			boolean acquired = contender.tryLock(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
			contender.unlock();
			return acquired;
		});
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		Handshakes.awaitWaiterOnRedis(other.registry, "lock:forever");
		assertThat(waiter.isDone()).isFalse();
		lock.unlock();
		lock.unlock();
		lock.unlock();
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void underTheTokenProtocolAnyStringAtTheLockKeyIsSomeHoldersTokenAndIsKept() throws InterruptedException {
		TestClient client = client(settings(LockProtocol.TOKEN));
		LeasedLock lock = client.registry.obtain("foreign");
		for (byte[] value : List.of(utf8("garbage"), utf8(""), utf8("-5"), utf8("99999999999999999999"), binary())) {
			set(client, "lock:foreign", value);
			assertThat(lock.tryLock()).isFalse();
			assertThat(lock.tryLock(Duration.ofMillis(200))).isFalse();
			assertThat(lock.isLocked()).isTrue();
			assertThat(client.registry.operations().inspect("foreign").held()).isTrue();
			assertThat(get(client, "lock:foreign")).isEqualTo(value);
			// A holder without an expiry holds until it deletes the key: we add none.
			assertThat(redis.server().execute("PTTL", "lock:foreign")).isEqualTo(-1L);
		}
		assertThat(client.registry.localKeyCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aLockKeyOfEveryOtherTypeIsAClearErrorAndIsKept(LockProtocol protocol) {
		TestClient client = client(settings(protocol));
		redis.server().execute("RPUSH", "lock:list", "a", "b");
		redis.server().execute("SADD", "lock:set", "a");
		redis.server().execute("ZADD", "lock:zset", "1", "a");
		redis.server().execute("XADD", "lock:stream", "1-1", "field", "value");
		for (String type : List.of("list", "set", "zset", "stream")) {
			LeasedLock lock = client.registry.obtain(type);
			assertThatExceptionOfType(LockAccessException.class).as(type)
				.isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)))
				.withMessageContaining("'lock:" + type + "'")
				.withMessageContaining("holds a Redis " + type);
			assertThat(redis.server().execute("TYPE", "lock:" + type)).isEqualTo(type);
			assertThat(exists("{lock:" + type + "}:fence")).isFalse();
		}
		assertThat(redis.server().execute("LRANGE", "lock:list", "0", "-1")).isEqualTo(List.of("a", "b"));
		assertThat(client.registry.localKeyCount()).isZero();
	}

	@Test
	void underTheTimestampProtocolOnlyDigitsAreATimestamp() throws InterruptedException {
		TestClient client = client(settings(LockProtocol.TIMESTAMP));
		LeasedLock lock = client.registry.obtain("stamp");
		List<byte[]> garbage = List.of(utf8(" 123"), utf8("123 "), utf8("+123"), utf8("0x10"), utf8("1.0"), utf8("inf"),
				utf8("nan"), utf8("-0"), utf8("１２３"), utf8("12\n"), binary());
		for (byte[] value : garbage) {
			set(client, "lock:stamp", value);
			assertThatExceptionOfType(LockAccessException.class).as(new String(value, StandardCharsets.UTF_8))
				.isThrownBy(lock::tryLock)
				.withMessageContaining("'lock:stamp'")
				.withMessageContaining("not a Unix timestamp");
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::isLocked);
			assertThat(get(client, "lock:stamp")).isEqualTo(value);
		}
		// The documented rule: a timestamp not in the future has expired, however it is
		// written, and is taken over.
		for (String expired : List.of("0", "000", "1")) {
			redis.server().execute("SET", "lock:stamp", expired);
			assertThat(lock.tryLock()).as(expired).isTrue();
			assertThat(redis.server().execute("GET", "lock:stamp")).isNotEqualTo(expired);
			lock.unlock();
		}
		// Eighteen digits is a timestamp, far in the future: held, whatever its unit.
		redis.server().execute("SET", "lock:stamp", "999999999999999999");
		assertThat(lock.tryLock()).isFalse();
		assertThat(lock.tryLock(Duration.ofMillis(200))).isFalse();
		assertThat(lock.isLocked()).isTrue();
		assertThat(redis.server().execute("GET", "lock:stamp")).isEqualTo("999999999999999999");
		assertThat(client.registry.localKeyCount()).isZero();
	}

	static Stream<Arguments> fenceGarbage() {
		List<Arguments> cases = new ArrayList<>();
		for (LockProtocol protocol : LockProtocol.values()) {
			for (String value : List.of("abc", "", "-5", "12.5", "1e10", "inf", "nan", " 1", "0x10", "9007199254740991",
					"99999999999999999999", "1".repeat(300))) {
				cases.add(Arguments.of(protocol, utf8(value)));
			}
			cases.add(Arguments.of(protocol, binary()));
		}
		return cases.stream();
	}

	@ParameterizedTest
	@MethodSource("fenceGarbage")
	void aFencingCounterThatIsNotOneIsAClearErrorAndNothingChanges(LockProtocol protocol, byte[] value) {
		TestClient client = client(settings(protocol));
		set(client, "{lock:fenced}:fence", value);
		LeasedLock lock = client.registry.obtain("fenced");
		badCounterError(protocol, lock)
			.withMessageContaining("Fencing counter key '{lock:fenced}:fence' of lock 'fenced'")
			.withMessageContaining("not a fencing counter that a next token can follow")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("fenced"));
		assertThatExceptionOfType(LockAccessException.class)
			.isThrownBy(() -> client.registry.operations().forceRelease("fenced"))
			.withMessageContaining("'{lock:fenced}:fence'");
		assertThat(exists("lock:fenced")).isFalse();
		assertThat(get(client, "{lock:fenced}:fence")).isEqualTo(value);
		assertThat(redis.server().execute("PTTL", "{lock:fenced}:fence")).isEqualTo(-1L);
		assertThat(client.registry.localKeyCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aFencingCounterThatIsNotOneKeepsItsValueButNotItsExpiry(LockProtocol protocol) {
		TestClient client = client(settings(protocol));
		// The draw reads the counter in the command that writes it (SET ... GET), so it
		// writes back what it found, and cannot know the expiry it had.
		redis.server().execute("SET", "{lock:expiring}:fence", "not a counter", "PX", "600000");
		badCounterError(protocol, client.registry.obtain("expiring")).withMessageContaining("holds 'not a counter'");
		assertThat(exists("lock:expiring")).isFalse();
		assertThat(redis.server().execute("GET", "{lock:expiring}:fence")).isEqualTo("not a counter");
		assertThat(redis.server().execute("PTTL", "{lock:expiring}:fence")).isEqualTo(-1L);
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void aFencingCounterKeyOfAnotherTypeIsAClearErrorAndIsKept(LockProtocol protocol) {
		TestClient client = client(settings(protocol));
		redis.server().execute("HSET", "{lock:h}:fence", "f", "v");
		redis.server().execute("RPUSH", "{lock:l}:fence", "1");
		redis.server().execute("SADD", "{lock:s}:fence", "1");
		for (String[] keyAndType : new String[][] { { "h", "hash" }, { "l", "list" }, { "s", "set" } }) {
			String key = keyAndType[0];
			badCounterError(protocol, client.registry.obtain(key)).withMessageContaining("'{lock:" + key + "}:fence'")
				.withMessageContaining("holds a Redis " + keyAndType[1]);
			assertThat(redis.server().execute("TYPE", "{lock:" + key + "}:fence")).isEqualTo(keyAndType[1]);
			assertThat(exists("lock:" + key)).isFalse();
		}
		assertThat(redis.server().execute("HGET", "{lock:h}:fence", "f")).isEqualTo("v");
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void fencingCountersCountOnFromAnyValueTheyCanHold(LockProtocol protocol) throws InterruptedException {
		TestClient client = client(settings(protocol));
		LeasedLock lock = client.registry.obtain("counted");
		// The largest counter Lua counts up from exactly: the next token is 2^53 - 1.
		redis.server().execute("SET", "{lock:counted}:fence", "9007199254740990");
		assertThat(lock.tryLock()).isTrue();
		assertThat(lock.fencingToken()).isEqualTo(9007199254740991L);
		lock.unlock();
		assertThat(redis.server().execute("GET", "{lock:counted}:fence")).isEqualTo("9007199254740991");
		// No token can follow it.
		badCounterError(protocol, lock)
			.withMessageContaining("holds '9007199254740991', not a fencing counter that a next token can follow");
		// Small or zero-padded counters are counted past by the server clock.
		for (String small : List.of("0", "00012", "5")) {
			redis.server().execute("SET", "{lock:counted}:fence", small);
			assertThat(lock.tryLock()).isTrue();
			assertThat(lock.fencingToken()).isGreaterThan(1_700_000_000_000_000L);
			lock.unlock();
		}
	}

	/**
	 * Where a counter that is not one shows: the timestamp protocol draws with the
	 * acquisition, which fails and leaves no lock behind; the token protocol draws at the
	 * hold's first fencingToken(), which fails (again when asked again) and leaves the
	 * hold as it was, for its owner to release.
	 */
	private static ThrowableAssertAlternative<LockAccessException> badCounterError(LockProtocol protocol,
			LeasedLock lock) {
		if (protocol == LockProtocol.TIMESTAMP) {
			return assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)));
		}
		assertThat(lock.tryLock()).isTrue();
		ThrowableAssertAlternative<LockAccessException> first = assertThatExceptionOfType(LockAccessException.class)
			.isThrownBy(lock::fencingToken);
		assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::fencingToken);
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		return first;
	}

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void garbageWrittenToTheCounterWhileHeldFollowsEachProtocolsRule(LockProtocol protocol)
			throws InterruptedException {
		TestClient client = client(settings(protocol));
		LeasedLock lock = client.registry.obtain("overwritten");
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(30))).isTrue();
		redis.server().execute("SET", "{lock:overwritten}:fence", "garbage");
		if (protocol == LockProtocol.TOKEN) {
			// The owner token alone says whose the lock is.
			lock.unlock();
			assertThat(exists("lock:overwritten")).isFalse();
		}
		else {
			// The counter says whose the lock is: one that is not a counter is no longer
			// ours, and the key is left to its expiry.
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			assertThat(exists("lock:overwritten")).isTrue();
		}
		assertThat(redis.server().execute("GET", "{lock:overwritten}:fence")).isEqualTo("garbage");
	}

	static Stream<Arguments> keyPrefixes() {
		return Stream.of(Arguments.of("token", SetnxLockSettings.builder().protocol(LockProtocol.TOKEN).build()),
				Arguments.of("timestamp, notifications, glob prefix",
						SetnxLockSettings.builder()
							.protocol(LockProtocol.TIMESTAMP)
							.timestampUnit(TimestampUnit.MILLISECONDS)
							.keyspaceNotifications(true)
							.keyPrefix("my locks*?[x]\\:")
							.build()),
				Arguments.of("timestamp, no prefix",
						SetnxLockSettings.builder().protocol(LockProtocol.TIMESTAMP).keyPrefix("").build()));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("keyPrefixes")
	void unusualKeysLockUnlockAndContendLikeAnyOther(String description, SetnxLockSettings settings) throws Exception {
		redis.server().execute("CONFIG", "SET", "notify-keyspace-events", "Kg");
		TestClient holder = client(settings);
		TestClient contender = client(settings);
		for (String key : UNUSUAL_KEYS) {
			String shown = shown(key);
			LockKey keys = LockKey.of(settings.keyPrefix(), key);
			LeasedLock lock = holder.registry.obtain(key);
			assertThat(lock.tryLock(Duration.ofSeconds(5))).as(shown).isTrue();
			assertThat(lock.key()).isEqualTo(key);
			assertThat(exists(settings.keyPrefix() + key)).as(shown).isTrue();
			assertThat(lock.fencingToken()).as(shown).isPositive();
			assertThat(exists(keys.fenceKey())).as(shown).isTrue();
			assertThat(holder.registry.operations().inspect(key).held()).as(shown).isTrue();
			CountDownLatch refused = new CountDownLatch(1);
			Future<Boolean> waiter = this.threads.submit(() -> {
				LeasedLock other = contender.registry.obtain(key);
				boolean first = other.tryLock();
				refused.countDown();
				// Under the token protocol a waiter sleeps until the holder's release
				// message or its 30 s lease: acquiring in time shows the message named
				// the key.
				boolean later = other.tryLock(Duration.ofSeconds(10));
				if (later) {
					other.unlock();
				}
				return !first && later;
			});
			assertThat(refused.await(10, TimeUnit.SECONDS)).as(shown).isTrue();
			Handshakes.awaitWaiterOnRedis(contender.registry, settings.keyPrefix() + key);
			lock.unlock();
			assertThat(waiter.get(15, TimeUnit.SECONDS)).as(shown).isTrue();
			assertThat(exists(settings.keyPrefix() + key)).as(shown).isFalse();
		}
		assertThat(holder.registry.localKeyCount()).isZero();
		assertThat(contender.registry.localKeyCount()).isZero();
	}

	@Test
	void theFencingCounterKeySharesTheLockKeysSlotWhateverTheKeyAndPrefix() {
		List<String> prefixes = List.of("", "lock:", "{app}:", "a}b:", "{", "}", "{}", "锁:");
		try (RedisServer cluster = RedisServer.start("--cluster-enabled", "yes")) {
			for (String prefix : prefixes) {
				for (String key : UNUSUAL_KEYS) {
					LockKey keys = LockKey.of(prefix, key);
					assertThat(keys.fenceKey()).isNotEqualTo(keys.redisKey());
					assertThat(cluster.execute("CLUSTER", "KEYSLOT", keys.fenceKey())).as(shown(prefix + key))
						.isEqualTo(cluster.execute("CLUSTER", "KEYSLOT", keys.redisKey()));
				}
			}
		}
	}

	private static boolean exists(String key) {
		return Long.valueOf(1).equals(redis.server().execute("EXISTS", key));
	}

	private static void set(TestClient client, String key, byte[] value) {
		client.redis
			.execute((RedisCallback<Boolean>) (connection) -> connection.stringCommands().set(utf8(key), value));
	}

	private static byte[] get(TestClient client, String key) {
		return client.redis.execute((RedisCallback<byte[]>) (connection) -> connection.stringCommands().get(utf8(key)));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return bytes that are no text at all: not UTF-8, with NUL and a line break.
	 */
	private static byte[] binary() {
		return new byte[] { (byte) 0xff, 0, (byte) 0xfe, '\r', '\n', (byte) 0xc3 };
	}

	private static String shown(String key) {
		return (key.length() > 40) ? key.length() + " characters"
				: "'" + key.replace("\n", "\\n").replace("\r", "\\r") + "'";
	}

}
