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
package io.github.setnxlock.reactor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.annotation.BlockingWork;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ReactiveLocks}: a lock taken at subscription, released at termination or
 * cancellation, exclusive across two registries, against a real Redis.
 *
 * @author setnx-lock authors
 */
class ReactiveLocksTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static final ExecutorService elsewhere = Executors.newCachedThreadPool();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private SetnxLockRegistry first;

	private SetnxLockRegistry second;

	@BeforeEach
	void connect() {
		this.first = registry(SetnxLockSettings.defaults());
		this.second = registry(SetnxLockSettings.defaults());
	}

	@AfterEach
	void disconnect() {
		this.first.close();
		this.second.close();
		this.factories.forEach(RedisConnections::destroy);
	}

	@Test
	void monosAndFluxesOfTwoRegistriesRunOneAfterAnother() {
		List<long[]> spans = new CopyOnWriteArrayList<>();
		List<Flux<String>> calls = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			LeasedLock lock = ((i % 2 == 0) ? this.first : this.second).obtain("reactive:one");
			Mono<String> work = timed(Mono.delay(Duration.ofMillis(100)).map((tick) -> "mono"), spans);
			Flux<String> works = timed(Flux.interval(Duration.ofMillis(30)).take(3).map((tick) -> "flux"), spans);
			calls.add((i % 3 == 0) ? ReactiveLocks.withLock(lock, Duration.ofSeconds(10), works)
					: ReactiveLocks.withLock(lock, Duration.ofSeconds(10), work).flux());
		}
		StepVerifier.create(Flux.merge(calls))
			.expectNextCount(2 * 3 + 4)
			.expectComplete()
			.verify(Duration.ofSeconds(30));
		spans.sort((a, b) -> Long.compare(a[0], b[0]));
		assertThat(spans).hasSize(6);
		for (int i = 1; i < spans.size(); i++) {
			assertThat(spans.get(i)[0]).isGreaterThanOrEqualTo(spans.get(i - 1)[1]);
		}
		assertThat(server().execute("EXISTS", "lock:reactive:one")).isEqualTo(0L);
	}

	@Test
	void nothingIsTakenBeforeSubscriptionAndEachSubscriptionLocksAgain() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		Mono<Integer> locked = ReactiveLocks.withLock(this.first.obtain("reactive:lazy"), Duration.ofSeconds(5),
				Mono.fromCallable(runs::incrementAndGet));
		Thread.sleep(100);
		assertThat(runs).hasValue(0);
		assertThat(server().execute("EXISTS", "lock:reactive:lazy")).isEqualTo(0L);
		StepVerifier.create(locked.concatWith(locked)).expectNext(1, 2).expectComplete().verify(Duration.ofSeconds(10));
		assertThat(server().execute("EXISTS", "lock:reactive:lazy")).isEqualTo(0L);
	}

	@Test
	void aLockHeldForTheWholeWaitFailsWithLockNotAcquired() throws Exception {
		LeasedLock held = this.second.obtain("reactive:busy");
		held.lock();
		try {
			StepVerifier
				.create(ReactiveLocks.withLock(this.first.obtain("reactive:busy", "busy"), Duration.ofSeconds(1),
						Mono.just("never")))
				.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockNotAcquiredException.class)
					.hasMessageContaining("'reactive:busy'"))
				.verify(Duration.ofSeconds(10));
			StepVerifier.create(ReactiveLocks.acquire(this.first.obtain("reactive:busy"), Duration.ZERO))
				.expectComplete()
				.verify(Duration.ofSeconds(10));
		}
		finally {
			held.unlock();
		}
	}

	@Test
	void aCancelledWaitTakesNothingAndACancelledHoldIsReleased() throws Exception {
		LeasedLock held = this.second.obtain("reactive:cancel");
		held.lock();
		AtomicInteger runs = new AtomicInteger();
		Disposable waiting = ReactiveLocks
			.withLock(this.first.obtain("reactive:cancel"), Duration.ofSeconds(30),
					Mono.fromCallable(runs::incrementAndGet))
			.subscribe();
		Thread.sleep(200);
		waiting.dispose();
		held.unlock();
		Thread.sleep(200);
		assertThat(runs).hasValue(0);
		assertThat(server().execute("EXISTS", "lock:reactive:cancel")).isEqualTo(0L);
		Disposable holding = ReactiveLocks
			.withLock(this.first.obtain("reactive:cancel"), Duration.ofSeconds(5), Mono.never())
			.subscribe();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Long.valueOf(1).equals(server().execute("EXISTS", "lock:reactive:cancel")));
		holding.dispose();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Long.valueOf(0).equals(server().execute("EXISTS", "lock:reactive:cancel")));
	}

	@Test
	void aCancelledSubscriberLeavesTheLockHeldUntilTheWorkItAskedForOnAnotherThreadReturns() {
		List<long[]> spans = new CopyOnWriteArrayList<>();
		AtomicInteger begun = new AtomicInteger();
		List<String> received = new CopyOnWriteArrayList<>();
		BaseSubscriber<String> lazy = new BaseSubscriber<>() {

			@Override
			protected void hookOnSubscribe(Subscription subscription) {
				// asks for values one at a time, below
			}

			@Override
			protected void hookOnNext(String value) {
				received.add(value);
			}

		};
		ReactiveLocks
			.withLock(this.first.obtain("reactive:lazy-steps"), Duration.ofSeconds(10),
					Flux.<String>generate((sink) -> sink.next(sleepThrough(Duration.ofMillis(500), begun, spans))))
			.subscribe(lazy);
		lazy.request(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
		// The next value is made on the thread that asks for it.
		elsewhere.execute(() -> lazy.request(1));
		await().atMost(Duration.ofSeconds(10)).until(() -> begun.get() == 2);
		lazy.dispose();
		StepVerifier
			.create(ReactiveLocks.withLock(this.second.obtain("reactive:lazy-steps"), Duration.ofSeconds(10),
					Mono.fromCallable(() -> sleepThrough(Duration.ZERO, begun, spans))))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(30));
		// The endless work stopped at the cancel, and the second holder ran after it.
		assertThat(spans).hasSize(3);
		spans.sort((a, b) -> Long.compare(a[0], b[0]));
		for (int i = 1; i < spans.size(); i++) {
			assertThat(spans.get(i)[0]).as("start of work %d after the end of the one before", i)
				.isGreaterThanOrEqualTo(spans.get(i - 1)[1]);
		}
	}

	@Test
	void aCancelledMonoOfAFutureReleasesWhileTheFuturesTaskRunsOn() throws Exception {
		CountDownLatch gate = new CountDownLatch(1);
		AtomicBoolean inside = new AtomicBoolean();
		Disposable cancelled = ReactiveLocks.withLock(this.first.obtain("reactive:future"), Duration.ofSeconds(10),
				Mono.defer(() -> Mono.fromFuture(CompletableFuture.runAsync(() -> {
					inside.set(true);
					BlockingWork.pass(gate, new AtomicBoolean());
					inside.set(false);
				}, elsewhere))))
			.subscribe();
		try {
			await().atMost(Duration.ofSeconds(10)).untilTrue(inside);
			cancelled.dispose();
			// As documented: Reactor cancels the future, not the task behind it, which
			// the
			// library cannot see end.
			LockHandle second = ReactiveLocks.acquire(this.second.obtain("reactive:future"), Duration.ofSeconds(10))
				.block(Duration.ofSeconds(30));
			assertThat(second).isNotNull();
			assertThat(inside).isTrue();
			second.release().get(10, TimeUnit.SECONDS);
		}
		finally {
			gate.countDown();
		}
	}

	@Test
	void workThatOutlivesItsLeaseFailsWithLockLost() {
		StepVerifier
			.create(ReactiveLocks.withLock(this.first.obtain("reactive:lost"), Duration.ZERO, Duration.ofMillis(150),
					Mono.delay(Duration.ofMillis(500)).map((tick) -> "late")))
			.expectError(LockLostException.class)
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void anAcquiredHandleIsTheSubscribersToRelease() {
		LockHandle handle = ReactiveLocks
			.acquire(this.first.obtain("reactive:handle"), Duration.ZERO, Duration.ofSeconds(5))
			.block(Duration.ofSeconds(10));
		assertThat(handle).isNotNull();
		assertThat(handle.isHeld()).isTrue();
		assertThat(server().execute("EXISTS", "lock:reactive:handle")).isEqualTo(1L);
		Mono.fromFuture(handle.release()).block(Duration.ofSeconds(10));
		assertThat(server().execute("EXISTS", "lock:reactive:handle")).isEqualTo(0L);
	}

	/**
	 * Blocking work that records its span once done, and does not stop for interrupts.
	 */
	private static String sleepThrough(Duration time, AtomicInteger begun, List<long[]> spans) {
		begun.incrementAndGet();
		long begin = System.nanoTime();
		BlockingWork.sleep(time, new AtomicBoolean());
		spans.add(new long[] { begin, System.nanoTime() });
		return "slept";
	}

	private static <T> Mono<T> timed(Mono<T> work, List<long[]> spans) {
		return Mono.defer(() -> {
			long begin = System.nanoTime();
			return work.doOnSuccess((value) -> spans.add(new long[] { begin, System.nanoTime() }));
		});
	}

	private static <T> Flux<T> timed(Flux<T> work, List<long[]> spans) {
		return Flux.defer(() -> {
			long begin = System.nanoTime();
			return work.doOnComplete(() -> spans.add(new long[] { begin, System.nanoTime() }));
		});
	}

	private SetnxLockRegistry registry(SetnxLockSettings settings) {
		LettuceConnectionFactory factory = RedisConnections.create(server(), Duration.ofSeconds(2));
		this.factories.add(factory);
		StringRedisTemplate template = RedisConnections.template(factory);
		return new SetnxLockRegistry(template, settings);
	}

	private static RedisServer server() {
		return redis.server();
	}

}
