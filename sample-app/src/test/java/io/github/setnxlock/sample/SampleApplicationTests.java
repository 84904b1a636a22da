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

package io.github.setnxlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.LockTimings;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.sample.SampleHttp.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's promises, over HTTP against the running application and its embedded
 * Redis: guarded updates add up under load and unguarded ones do not, locks of different
 * accounts are independent, stock is never oversold and stale writes are fenced off, and
 * the manual report run falls back while the report's lock is taken.
 * <p>
 * Every test uses keys of its own, so the tests can share one application.
 *
 * @author setnx-lock authors
 */
// The schedule is pushed far out so that only the tests take the report's lock here.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.jobs.report-period=1h")
class SampleApplicationTests {

	private static final int THREADS = 8;

	private static final int DEPOSITS_PER_THREAD = 25;

	@LocalServerPort
	private int port;

	@Autowired
	private LockRegistry locks;

	@Autowired
	private StockLedger ledger;

	@Autowired
	private LockTimings timings;

	@Autowired
	@Qualifier(EmbeddedRedisLifecycle.BEAN_NAME)
	private EmbeddedRedis embeddedRedis;

	@Autowired
	private StringRedisTemplate redis;

	@Autowired
	private Environment environment;

	@Autowired
	private CleanupJob cleanup;

	private SampleHttp http;

	@BeforeEach
	void client() {
		this.http = new SampleHttp(this.port);
	}

	@Test
	void dataAndLocksLiveInTheEmbeddedRedis() {
		String account = unique("embedded");
		assertThat(this.embeddedRedis.port()).isNotEqualTo(6379);
		assertThat(this.environment.getProperty("spring.data.redis.port", Integer.class))
			.isEqualTo(this.embeddedRedis.port());
		assertThat(this.http.post("/accounts/" + account + "/deposit?amount=7").status()).isEqualTo(200);
		assertThat(this.redis.opsForValue().get("sample:account:" + account)).isEqualTo("7");
		// Released after the call, with the key prefix from application.yml.
		assertThat(this.redis.hasKey("sample:lock:AccountService.deposit:" + account)).isFalse();
	}

	@Test
	void guardedDepositsFromManyThreadsAddUpExactly() throws Exception {
		String account = unique("guarded");
		List<Reply> replies = this.http.postConcurrently(THREADS, DEPOSITS_PER_THREAD,
				(thread) -> "/accounts/" + account + "/deposit?amount=" + (thread + 1));
		assertThat(replies).extracting(Reply::status).containsOnly(200);
		assertThat(this.http.get("/accounts/" + account).number("$.balance")).isEqualTo(expectedSum());
	}

	@Test
	void reactiveAndBlockingDepositsToOneAccountTakeTurnsUnderOneLock() throws Exception {
		String account = unique("reactive");
		List<Reply> replies = this.http.postConcurrently(THREADS, DEPOSITS_PER_THREAD, (thread) -> "/accounts/"
				+ account + ((thread % 2 == 0) ? "/deposit-reactive" : "/deposit") + "?amount=" + (thread + 1));
		assertThat(replies).extracting(Reply::status).containsOnly(200);
		assertThat(this.http.get("/accounts/" + account).number("$.balance")).isEqualTo(expectedSum());
		assertThat(this.redis.hasKey("sample:lock:AccountService.deposit:" + account)).isFalse();
	}

	@Test
	void unguardedDepositsFromManyThreadsLoseUpdates() throws Exception {
		String account = unique("unguarded");
		List<Reply> replies = this.http.postConcurrently(THREADS, DEPOSITS_PER_THREAD,
				(thread) -> "/accounts/" + account + "/deposit-unsafe?amount=" + (thread + 1));
		assertThat(replies).extracting(Reply::status).containsOnly(200);
		assertThat(this.http.get("/accounts/" + account).number("$.balance")).isLessThan(expectedSum());
	}

	@Test
	void guardedDepositsToSeveralAccountsAtOnceEachAddUpExactly() throws Exception {
		String prefix = unique("several");
		int accounts = 4;
		// Two threads per account, all accounts at once.
		List<Reply> replies = this.http.postConcurrently(THREADS, DEPOSITS_PER_THREAD,
				(thread) -> "/accounts/" + prefix + "-" + (thread % accounts) + "/deposit?amount=1");
		assertThat(replies).extracting(Reply::status).containsOnly(200);
		for (int account = 0; account < accounts; account++) {
			assertThat(this.http.get("/accounts/" + prefix + "-" + account).number("$.balance"))
				.isEqualTo((long) THREADS / accounts * DEPOSITS_PER_THREAD);
		}
	}

	@Test
	void depositsToDifferentAccountsDoNotWaitForEachOther() throws Exception {
		String busy = unique("busy");
		String free = unique("free");
		LeasedLock held = this.locks.obtain("AccountService.deposit:" + busy);
		held.lock();
		CompletableFuture<Reply> waiting;
		try {
			waiting = this.http.postAsync("/accounts/" + busy + "/deposit?amount=1");
			long start = System.nanoTime();
			Reply other = this.http.post("/accounts/" + free + "/deposit?amount=1");
			assertThat(other.status()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
			assertThat(waiting).failsWithin(Duration.ofMillis(300)).withThrowableOfType(TimeoutException.class);
		}
		finally {
			held.unlock();
		}
		Reply released = waiting.get(10, TimeUnit.SECONDS);
		assertThat(released.status()).isEqualTo(200);
		assertThat(released.number("$.balance")).isEqualTo(1);
	}

	@Test
	void depositLockWaitComesFromItsOwnSettingInApplicationYml() {
		assertThat(this.timings.waitTime("AccountService.deposit", null)).isEqualTo(Duration.ofSeconds(10));
		assertThat(this.timings.waitTime("SomethingElse.method", null)).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void concurrentReservationsNeverOversell() throws Exception {
		String sku = unique("sku");
		assertThat(this.http.put("/stock/" + sku + "?quantity=100").status()).isEqualTo(200);
		int threads = 16;
		List<Reply> replies = this.http.postConcurrently(threads, 10, (thread) -> "/stock/" + sku + "/reserve");
		List<Reply> reserved = replies.stream().filter((reply) -> reply.status() == 200).toList();
		List<Reply> refused = replies.stream().filter((reply) -> reply.status() == 409).toList();
		assertThat(reserved).hasSize(100).allSatisfy((reply) -> assertThat(reply.body()).contains("RESERVED"));
		assertThat(refused).hasSize(threads * 10 - 100)
			.allSatisfy((reply) -> assertThat(reply.body()).contains("INSUFFICIENT"));
		List<Long> tokens = reserved.stream().map((reply) -> reply.number("$.fencingToken")).toList();
		assertThat(tokens).doesNotHaveDuplicates();
		StockLedger.Level level = this.ledger.level(sku);
		assertThat(level.quantity()).isZero();
		// Holders took turns, so the last writer held the highest token.
		assertThat(level.fence()).isEqualTo(tokens.stream().mapToLong(Long::longValue).max().getAsLong());
	}

	@Test
	void reactiveAndBlockingReservationsNeverOversellAndTheirTokensIncrease() throws Exception {
		String sku = unique("reactive-sku");
		assertThat(this.http.put("/stock/" + sku + "?quantity=60").status()).isEqualTo(200);
		int threads = 16;
		List<Reply> replies = this.http.postConcurrently(threads, 5,
				(thread) -> "/stock/" + sku + ((thread % 2 == 0) ? "/reserve-reactive" : "/reserve"));
		List<Reply> reserved = replies.stream().filter((reply) -> reply.status() == 200).toList();
		assertThat(reserved).hasSize(60).allSatisfy((reply) -> assertThat(reply.body()).contains("RESERVED"));
		assertThat(replies).filteredOn((reply) -> reply.status() == 409)
			.hasSize(threads * 5 - 60)
			.allSatisfy((reply) -> assertThat(reply.body()).contains("INSUFFICIENT"));
		List<Long> tokens = reserved.stream().map((reply) -> reply.number("$.fencingToken")).toList();
		assertThat(tokens).doesNotHaveDuplicates();
		StockLedger.Level level = this.ledger.level(sku);
		assertThat(level.quantity()).isZero();
		assertThat(level.fence()).isEqualTo(tokens.stream().mapToLong(Long::longValue).max().getAsLong());
	}

	@Test
	void ledgerRefusesAWriteWithAnOlderFencingToken() {
		String sku = unique("fenced");
		Reply restocked = this.http.put("/stock/" + sku + "?quantity=5");
		long token = restocked.number("$.fencingToken");
		assertThat(this.ledger.write(sku, 999, token - 1)).isFalse();
		assertThat(this.http.get("/stock/" + sku).number("$.quantity")).isEqualTo(5);
		assertThat(this.ledger.write(sku, 4, token)).isTrue();
		Reply next = this.http.post("/stock/" + sku + "/reserve?quantity=4");
		assertThat(next.status()).isEqualTo(200);
		assertThat(next.number("$.fencingToken")).isGreaterThan(token);
		assertThat(next.number("$.quantity")).isZero();
	}

	@Test
	void manualReportRunFallsBackWhileTheReportLockIsTaken() throws Exception {
		LeasedLock report = this.locks.obtain(ReportJob.LOCK_NAME);
		assertThat(report.tryLock(Duration.ofSeconds(5))).isTrue();
		try {
			Reply refused = this.http.post("/jobs/report/run");
			assertThat(refused.status()).isEqualTo(409);
			assertThat(refused.<Boolean>json("$.ran")).isFalse();
		}
		finally {
			report.unlock();
		}
		Reply ran = this.http.post("/jobs/report/run");
		assertThat(ran.status()).isEqualTo(200);
		assertThat(ran.<Boolean>json("$.ran")).isTrue();
		assertThat(ran.<String>json("$.report.lastTrigger")).isEqualTo("manual");
		assertThat(this.http.get("/jobs/report").number("$.runs")).isEqualTo(ran.number("$.report.runs"));
	}

	@Test
	void lockTrafficShowsInTheMetricsAndTheLocksInTheHealth() throws Exception {
		String metric = "/actuator/metrics/setnx.lock.acquire?tag=name:AccountService.deposit&tag=result:acquired";
		long before = this.http.get(metric).number("$.measurements[0].value");
		String account = unique("metered");
		List<Reply> replies = this.http.postConcurrently(4, 5,
				(thread) -> "/accounts/" + account + "/deposit?amount=1");
		assertThat(replies).allSatisfy((reply) -> assertThat(reply.status()).isEqualTo(200));
		Reply acquired = this.http.get(metric);
		assertThat(acquired.status()).isEqualTo(200);
		assertThat(acquired.<String>json("$.measurements[0].statistic")).isEqualTo("COUNT");
		assertThat(acquired.number("$.measurements[0].value")).isEqualTo(before + 20);
		Reply held = this.http.get("/actuator/metrics/setnx.lock.hold?tag=name:AccountService.deposit");
		assertThat(held.number("$.measurements[0].value")).isGreaterThanOrEqualTo(20);
		Reply health = this.http.get("/actuator/health");
		assertThat(health.<String>json("$.components.setnxLock.status")).isEqualTo("UP");
		assertThat(health.<String>json("$.components.setnxLock.details.keyPrefix")).isEqualTo("sample:lock:");
	}

	@Test
	void theLocksEndpointShowsAHeldLockWhileItIsHeld() {
		String key = unique("shown");
		LeasedLock lock = this.locks.obtain(key, "shown");
		lock.lock();
		try {
			// Drawn on the first request (token protocol); the endpoint shows it then.
			long token = lock.fencingToken();
			Reply held = this.http.get("/actuator/locks");
			assertThat(held.status()).isEqualTo(200);
			assertThat(held.<List<String>>json("$.held[*].key")).contains(key);
			assertThat(held.<List<Number>>json("$.held[?(@.key=='" + key + "')].fencingToken")).singleElement()
				.satisfies((shown) -> assertThat(shown.longValue()).isEqualTo(token));
			Reply state = this.http.get("/actuator/locks/" + key);
			assertThat(state.<Boolean>json("$.held")).isTrue();
			assertThat(state.<Boolean>json("$.heldHere")).isTrue();
			assertThat(state.body()).doesNotContain(this.redis.opsForValue().get("sample:lock:" + key));
			// Force release is off in the sample: no such operation.
			assertThat(this.http.delete("/actuator/locks/" + key).status()).isIn(404, 405);
		}
		finally {
			lock.unlock();
		}
		assertThat(this.http.get("/actuator/locks").<List<String>>json("$.held[*].key")).doesNotContain(key);
	}

	@Test
	void theLocksEndpointListsTheLocksOfEveryInstanceWithTheirHolders() throws Exception {
		String here = unique("here");
		String elsewhere = unique("elsewhere");
		SetnxLockSettings otherInstance = SetnxLockSettings.builder()
			.keyPrefix("sample:lock:")
			.applicationName("other-instance")
			.build();
		try (SetnxLockRegistry other = new SetnxLockRegistry(this.redis, otherInstance)) {
			LeasedLock mine = this.locks.obtain(here);
			LeasedLock theirs = other.obtain(elsewhere);
			mine.lock();
			assertThat(theirs.tryLock(Duration.ofSeconds(5))).isTrue();
			try {
				Reply listed = this.http.get("/actuator/locks");
				assertThat(listed.status()).isEqualTo(200);
				assertThat(listed.<List<String>>json("$.held[*].key")).contains(here).doesNotContain(elsewhere);
				assertThat(listed.<Boolean>json("$.inRedis.complete")).isTrue();
				assertThat(listed.<List<String>>json("$.inRedis.locks[*].key")).contains(here, elsewhere);
				assertThat(listed.<List<String>>json("$.inRedis.locks[?(@.key=='" + here + "')].holder"))
					.singleElement()
					.asString()
					.startsWith("setnx-lock-sample@")
					.endsWith("/" + Thread.currentThread().getName().replaceAll("[^A-Za-z0-9._-]", "-"));
				assertThat(listed.<List<String>>json("$.inRedis.locks[?(@.key=='" + elsewhere + "')].holder"))
					.singleElement()
					.asString()
					.startsWith("other-instance@");
				assertThat(listed.<List<Boolean>>json("$.inRedis.locks[?(@.key=='" + elsewhere + "')].heldHere"))
					.containsExactly(false);
				assertThat(listed.<List<Number>>json("$.inRedis.locks[?(@.key=='" + elsewhere + "')].ttlMillis"))
					.singleElement()
					.satisfies((ttl) -> assertThat(ttl.longValue()).isPositive());
				assertThat(listed.body()).doesNotContain(this.redis.opsForValue().get("sample:lock:" + elsewhere));
			}
			finally {
				theirs.unlock();
				mine.unlock();
			}
		}
	}

	@Test
	void theLocksEndpointReadsKeysWithSlashesGivenWithOrWithoutThePrefix() {
		String key = "reports/" + unique("2026") + "/11";
		LeasedLock lock = this.locks.obtain(key, "reports");
		lock.lock();
		try {
			Reply state = this.http.get("/actuator/locks/" + key);
			assertThat(state.status()).isEqualTo(200);
			assertThat(state.<String>json("$.key")).isEqualTo(key);
			assertThat(state.<Boolean>json("$.held")).isTrue();
			Reply prefixed = this.http.get("/actuator/locks/sample:lock:" + key);
			assertThat(prefixed.status()).isEqualTo(200);
			assertThat(prefixed.<String>json("$.key")).isEqualTo(key);
			assertThat(prefixed.<String>json("$.redisKey")).isEqualTo("sample:lock:" + key);
			assertThat(prefixed.<Boolean>json("$.heldHere")).isTrue();
		}
		finally {
			lock.unlock();
		}
		Reply released = this.http.get("/actuator/locks/sample:lock:" + key);
		assertThat(released.<Boolean>json("$.held")).isFalse();
		assertThat(released.<String>json("$.redisKey")).isEqualTo("sample:lock:sample:lock:" + key);
	}

	@Test
	void theShedLockJobRunsOnceWithinItsLockAtLeastFor() {
		long before = this.cleanup.runs().runs();
		this.cleanup.run();
		this.cleanup.run();
		assertThat(this.http.get("/jobs/cleanup").number("$.runs")).isEqualTo(before + 1);
		// Kept after the run for lockAtLeastFor, under the starter's key prefix.
		assertThat(this.redis.hasKey("sample:lock:shedlock:cleanup")).isTrue();
		this.redis.delete("sample:lock:shedlock:cleanup");
	}

	@Test
	void thisInstanceLeadsTheSpringIntegrationRoleOnASetnxLock() {
		await().atMost(Duration.ofSeconds(20)).until(() -> this.http.get("/leader").body().contains("\"leader\":true"));
		assertThat(this.redis.hasKey("sample:lock:" + LeaderConfiguration.ROLE)).isTrue();
		assertThat(this.locks.obtain(LeaderConfiguration.ROLE).isLocked()).isTrue();
	}

	@Test
	void invalidAmountIsABadRequest() {
		Reply reply = this.http.post("/accounts/" + unique("invalid") + "/deposit?amount=0");
		assertThat(reply.status()).isEqualTo(400);
		assertThat(reply.<String>json("$.detail")).contains("amount must be positive");
	}

	private static long expectedSum() {
		// Thread i deposits i + 1 each time.
		return (long) DEPOSITS_PER_THREAD * THREADS * (THREADS + 1) / 2;
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID();
	}

}
