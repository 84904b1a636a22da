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
package io.github.setnxlock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock} on methods whose work ends after they return: a
 * {@link CompletableFuture} holds the lock until it completes, a {@code Mono} or
 * {@code Flux} from subscription to its end; in two applications, each with its own
 * connection and registry, against a real Redis.
 *
 * @author setnx-lock authors
 */
class AsynchronousMethodTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final ScheduledExecutorService elsewhere = Executors.newScheduledThreadPool(4);

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
	}

	@Test
	void sixFuturesForOneIdFromTwoApplicationsRunOneAfterAnother() throws Exception {
		Work first = start(Work.class);
		Work second = start(Work.class);
		long start = System.nanoTime();
		List<CompletableFuture<String>> calls = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			calls.add(((i % 2 == 0) ? first : second).future("42"));
		}
		CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
		assertNoOverlap(first, second);
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
		assertThat(redis().hasKey("lock:work:42")).isFalse();
	}

	@Test
	void sixMonosForOneIdFromTwoApplicationsRunOneAfterAnother() {
		Work first = start(Work.class);
		Work second = start(Work.class);
		long start = System.nanoTime();
		List<Mono<String>> calls = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			calls.add(((i % 2 == 0) ? first : second).mono("42"));
		}
		StepVerifier.create(Flux.merge(calls)).expectNextCount(6).expectComplete().verify(Duration.ofSeconds(30));
		assertNoOverlap(first, second);
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
		assertThat(redis().hasKey("lock:work:42")).isFalse();
	}

	@Test
	void fluxesForOneIdFromTwoApplicationsRunOneAfterAnother() {
		Work first = start(Work.class);
		Work second = start(Work.class);
		List<Flux<String>> calls = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			calls.add(((i % 2 == 0) ? first : second).flux("42"));
		}
		StepVerifier.create(Flux.merge(calls)).expectNextCount(12).expectComplete().verify(Duration.ofSeconds(30));
		assertNoOverlap(first, second);
		assertThat(first.runs().get() + second.runs().get()).isEqualTo(4);
	}

	@Test
	void differentIdsRunAtOnce() throws Exception {
		Work work = start(Work.class);
		CompletableFuture<String> meeting = work.meet("a", "b");
		CompletableFuture<String> other = work.meet("b", "a");
		// Each completes only once the other has started: both locks are held at once.
		assertThat(meeting.get(10, TimeUnit.SECONDS)).isEqualTo("met b");
		assertThat(other.get(10, TimeUnit.SECONDS)).isEqualTo("met a");
	}

	@Test
	void aFailedStageReleasesAtOnceAndKeepsItsError() {
		Work work = start(Work.class);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> work.failing("7").toCompletableFuture().get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class)
			.withMessageContaining("failed 7");
		assertThat(redis().hasKey("lock:work:7")).isFalse();
		StepVerifier.create(work.failingMono("8")).expectErrorMessage("failed 8").verify(Duration.ofSeconds(10));
		assertThat(redis().hasKey("lock:work:8")).isFalse();
	}

	@Test
	void aCancelledCallLeavesTheMethodsFutureAloneAndHoldsTheLockUntilItCompletes() throws Exception {
		Work work = start(Work.class);
		CompletableFuture<String> call = work.endless("9");
		await().atMost(Duration.ofSeconds(10)).until(() -> work.pending().size() == 1);
		call.cancel(false);
		assertThat(call).isCancelled();
		assertThat(work.pending().get(0)).isNotDone();
		assertThat(redis().hasKey("lock:work:9")).isTrue();
		work.pending().get(0).complete("done");
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis().hasKey("lock:work:9"));
	}

	@Test
	void aCancelledWaitNeverRunsTheMethodAndTakesNothing() throws Exception {
		Work work = start(Work.class);
		Work other = start(Work.class);
		CompletableFuture<String> holder = other.endless("10");
		await().atMost(Duration.ofSeconds(10)).until(() -> other.pending().size() == 1);
		CompletableFuture<String> waiting = work.endless("10");
		Disposable waitingMono = work.mono("10").subscribe();
		Thread.sleep(200);
		waiting.cancel(false);
		waitingMono.dispose();
		other.pending().get(0).complete("done");
		assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		// An attempt that was on its way to Redis when the wait was given up may land
		// and is then undone: the key is gone soon after, never kept (a hold would be
		// renewed, and stay).
		await().atMost(Duration.ofSeconds(5)).until(() -> !redis().hasKey("lock:work:10"));
		Thread.sleep(300);
		assertThat(redis().hasKey("lock:work:10")).isFalse();
		assertThat(work.runs()).hasValue(0);
		assertThat(work.pending()).isEmpty();
	}

	@Test
	void aCallerThatTimesTheCallOutWhileItWaitsLeavesNoLockBehind() throws Exception {
		Work work = start(Work.class);
		Work other = start(Work.class);
		CompletableFuture<String> holder = other.endless("16");
		await().atMost(Duration.ofSeconds(10)).until(() -> other.pending().size() == 1);
		CompletableFuture<String> call = work.endless("16").orTimeout(200, TimeUnit.MILLISECONDS);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(java.util.concurrent.TimeoutException.class);
		other.pending().get(0).complete("done");
		assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		Thread.sleep(200);
		assertThat(work.runs()).hasValue(0);
		assertThat(redis().hasKey("lock:work:16")).isFalse();
	}

	@Test
	void aDisposedMonoReleasesItsLock() {
		Work work = start(Work.class);
		Disposable subscription = work.endlessMono("11").subscribe();
		await().atMost(Duration.ofSeconds(10)).until(() -> redis().hasKey("lock:work:11"));
		subscription.dispose();
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis().hasKey("lock:work:11"));
	}

	@Test
	void aMonoNobodySubscribesToTakesNoLockAndRunsNothing() throws Exception {
		Work work = start(Work.class);
		Mono<String> unused = work.mono("12");
		Thread.sleep(200);
		assertThat(unused).isNotNull();
		assertThat(work.runs()).hasValue(0);
		assertThat(redis().hasKey("lock:work:12")).isFalse();
		// Subscribed twice, it runs twice, each time under the lock.
		StepVerifier.create(unused.concatWith(unused))
			.expectNextCount(2)
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(work.runs()).hasValue(2);
	}

	@Test
	void eachFailureActionWorksForEachKind() throws Exception {
		Work work = start(Work.class);
		Work other = start(Work.class);
		other.endless("13");
		await().atMost(Duration.ofSeconds(10)).until(() -> other.pending().size() == 1);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> work.impatientFuture("13").get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockNotAcquiredException.class);
		assertThat(work.skippedFuture("13").get(10, TimeUnit.SECONDS)).isNull();
		assertThat(work.fallbackFuture("13").get(10, TimeUnit.SECONDS)).isEqualTo("fallback 13");
		StepVerifier.create(work.impatientMono("13"))
			.expectError(LockNotAcquiredException.class)
			.verify(Duration.ofSeconds(10));
		StepVerifier.create(work.impatientFlux("13"))
			.expectError(LockNotAcquiredException.class)
			.verify(Duration.ofSeconds(10));
		StepVerifier.create(work.skippedMono("13")).expectComplete().verify(Duration.ofSeconds(10));
		StepVerifier.create(work.fallbackMono("13"))
			.expectNext("fallback 13")
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		StepVerifier.create(work.skippedFlux("13")).expectComplete().verify(Duration.ofSeconds(10));
		StepVerifier.create(work.fallbackFlux("13"))
			.expectNext("fallback 13")
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(work.runs()).hasValue(0);
		other.pending().get(0).complete("done");
	}

	@Test
	void holdAtLeastKeepsTheKeyAfterAQuickFuture() throws Exception {
		Work work = start(Work.class);
		assertThat(work.quick("17").get(10, TimeUnit.SECONDS)).isEqualTo("quick 17");
		// Released, but kept in Redis for what is left of the 2 s.
		assertThat(redis().hasKey("lock:work:17")).isTrue();
		assertThat(redis().getExpire("lock:work:17", TimeUnit.MILLISECONDS)).isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis().hasKey("lock:work:17"));
	}

	@Test
	void aLockLostBeforeTheWorkEndedFailsItsResult() {
		Work work = start(Work.class);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> work.outlivesItsLease("14").get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockLostException.class);
		StepVerifier.create(work.monoOutlivesItsLease("15"))
			.expectError(LockLostException.class)
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void aLockLostBeforeFailedWorkEndedIsAddedToItsError() {
		Work work = start(Work.class);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> work.failsAfterItsLease("18").get(10, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessage("failed late 18")
			.satisfies((failure) -> assertThat(failure.getSuppressed()).singleElement()
				.isInstanceOf(LockLostException.class));
		StepVerifier.create(work.monoFailsAfterItsLease("19"))
			.expectErrorSatisfies((failure) -> assertThat(failure).isInstanceOf(IllegalStateException.class)
				.hasMessage("failed late 19")
				.satisfies((thrown) -> assertThat(thrown.getSuppressed()).singleElement()
					.isInstanceOf(LockLostException.class)))
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void returnTypesTheAdviceCannotFollowFailStartUp() {
		assertStartUpFails(ReturnsFuture.class, "ReturnsFuture.run(): it returns java.util.concurrent.Future, whose"
				+ " end the lock's advice cannot follow");
		assertStartUpFails(ReturnsPublisher.class, "it returns org.reactivestreams.Publisher, whose end");
		assertStartUpFails(ReturnsOwnStage.class, "a CompletionStage the lock's advice cannot create");
		assertStartUpFails(InterruptsAFuture.class, "interruptOnLoss needs a thread that holds the lock");
	}

	private static void assertNoOverlap(Work... applications) {
		List<long[]> spans = new ArrayList<>();
		for (Work work : applications) {
			spans.addAll(work.spans());
		}
		assertThat(spans).isNotEmpty();
		spans.sort((a, b) -> Long.compare(a[0], b[0]));
		for (int i = 1; i < spans.size(); i++) {
			assertThat(spans.get(i)[0]).as("start of work %d after the end of the one before", i)
				.isGreaterThanOrEqualTo(spans.get(i - 1)[1]);
		}
	}

	private void assertStartUpFails(Class<?> bean, String message) {
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> start(bean))
			.satisfies((ex) -> assertThat(StartUpFailures.causes(ex))
				.anySatisfy((cause) -> assertThat(cause).contains(message)));
	}

	private StringRedisTemplate redis() {
		return this.contexts.get(0).getBean(StringRedisTemplate.class);
	}

	private <T> T start(Class<T> bean) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		this.contexts.add(context);
		// What Spring Boot's AOP auto-configuration does: proxies for the advisor's
		// beans.
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(context);
		context.register(Application.class, bean);
		context.refresh();
		return context.getBean(bean);
	}

	@Configuration(proxyBeanMethods = false)
	static class Application {

		@Bean(destroyMethod = "destroy")
		LettuceConnectionFactory connectionFactory() {
			return RedisConnections.create(redisServer.server(), Duration.ofSeconds(2));
		}

		@Bean
		StringRedisTemplate redisTemplate(LettuceConnectionFactory connectionFactory) {
			return RedisConnections.template(connectionFactory);
		}

		@Bean(destroyMethod = "close")
		SetnxLockRegistry registry(StringRedisTemplate redisTemplate) {
			return new SetnxLockRegistry(redisTemplate, SetnxLockSettings.defaults());
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static DistributedLockAdvisor distributedLockAdvisor(
				org.springframework.beans.factory.ObjectProvider<SetnxLockRegistry> registry) {
			return new DistributedLockAdvisor(registry::getObject,
					() -> LockTimings.withDefaultWait(Duration.ofSeconds(10)));
		}

	}

	static class Work {

		final List<long[]> spans = new CopyOnWriteArrayList<>();

		final AtomicInteger runs = new AtomicInteger();

		final List<CompletableFuture<String>> pending = new CopyOnWriteArrayList<>();

		private final List<CompletableFuture<String>> started = new CopyOnWriteArrayList<>();

		/** The other id's start, for {@link #meet}. */
		private final java.util.Map<String, CompletableFuture<Void>> starts = new java.util.concurrent.ConcurrentHashMap<>();

		// Through methods: the test holds the bean's proxy, whose own fields are empty.
		public List<long[]> spans() {
			return this.spans;
		}

		public AtomicInteger runs() {
			return this.runs;
		}

		public List<CompletableFuture<String>> pending() {
			return this.pending;
		}

		@DistributedLock(name = "work", key = "#id")
		public CompletableFuture<String> future(String id) {
			this.runs.incrementAndGet();
			long begin = System.nanoTime();
			CompletableFuture<String> done = new CompletableFuture<>();
			elsewhere.schedule(() -> {
				this.spans.add(new long[] { begin, System.nanoTime() });
				done.complete("future " + id);
			}, 150, TimeUnit.MILLISECONDS);
			return done;
		}

		@DistributedLock(name = "work", key = "#id")
		public Mono<String> mono(String id) {
			return Mono.defer(() -> {
				this.runs.incrementAndGet();
				long begin = System.nanoTime();
				return Mono.delay(Duration.ofMillis(150)).map((tick) -> {
					this.spans.add(new long[] { begin, System.nanoTime() });
					return "mono " + id;
				});
			});
		}

		@DistributedLock(name = "work", key = "#id")
		public Flux<String> flux(String id) {
			this.runs.incrementAndGet();
			long begin = System.nanoTime();
			return Flux.interval(Duration.ofMillis(50))
				.take(3)
				.map((tick) -> "flux " + id + " " + tick)
				.doOnComplete(() -> this.spans.add(new long[] { begin, System.nanoTime() }));
		}

		@DistributedLock(name = "work", key = "#id")
		public CompletableFuture<String> meet(String id, String otherId) {
			this.starts.computeIfAbsent(id, (key) -> new CompletableFuture<>()).complete(null);
			return this.starts.computeIfAbsent(otherId, (key) -> new CompletableFuture<>())
				.thenApply((met) -> "met " + otherId);
		}

		@DistributedLock(name = "work", key = "#id")
		public CompletionStage<String> failing(String id) {
			return CompletableFuture.supplyAsync(() -> {
				throw new IllegalStateException("failed " + id);
			}, elsewhere);
		}

		@DistributedLock(name = "work", key = "#id")
		public Mono<String> failingMono(String id) {
			return Mono.delay(Duration.ofMillis(20)).then(Mono.error(new IllegalStateException("failed " + id)));
		}

		@DistributedLock(name = "work", key = "#id")
		public CompletableFuture<String> endless(String id) {
			this.runs.incrementAndGet();
			CompletableFuture<String> done = new CompletableFuture<>();
			this.pending.add(done);
			return done;
		}

		@DistributedLock(name = "work", key = "#id")
		public Mono<String> endlessMono(String id) {
			return Mono.never();
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms")
		public CompletableFuture<String> impatientFuture(String id) {
			return future(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms")
		public Mono<String> impatientMono(String id) {
			return mono(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.SKIP)
		public CompletableFuture<String> skippedFuture(String id) {
			return future(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.FALLBACK,
				fallback = "fallback")
		public CompletableFuture<String> fallbackFuture(String id) {
			return future(id);
		}

		public CompletableFuture<String> fallback(String id) {
			return CompletableFuture.completedFuture("fallback " + id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms")
		public Flux<String> impatientFlux(String id) {
			return flux(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.FALLBACK,
				fallback = "fallbackOfMono")
		public Mono<String> fallbackMono(String id) {
			return mono(id);
		}

		public Mono<String> fallbackOfMono(String id) {
			return Mono.just("fallback " + id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.SKIP)
		public Mono<String> skippedMono(String id) {
			return mono(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.SKIP)
		public Flux<String> skippedFlux(String id) {
			return flux(id);
		}

		@DistributedLock(name = "work", key = "#id", waitTime = "500ms", onFailure = OnLockFailure.FALLBACK,
				fallback = "fallbackOfFlux")
		public Flux<String> fallbackFlux(String id) {
			return flux(id);
		}

		public Flux<String> fallbackOfFlux(String id) {
			return Flux.just("fallback " + id);
		}

		@DistributedLock(name = "work", key = "#id", holdAtLeast = "2s")
		public CompletableFuture<String> quick(String id) {
			return CompletableFuture.completedFuture("quick " + id);
		}

		@DistributedLock(name = "work", key = "#id", leaseTime = "200ms")
		public CompletableFuture<String> outlivesItsLease(String id) {
			CompletableFuture<String> done = new CompletableFuture<>();
			elsewhere.schedule(() -> done.complete("late"), 600, TimeUnit.MILLISECONDS);
			return done;
		}

		@DistributedLock(name = "work", key = "#id", leaseTime = "200ms")
		public Mono<String> monoOutlivesItsLease(String id) {
			return Mono.delay(Duration.ofMillis(600)).map((tick) -> "late");
		}

		@DistributedLock(name = "work", key = "#id", leaseTime = "200ms")
		public CompletableFuture<String> failsAfterItsLease(String id) {
			CompletableFuture<String> done = new CompletableFuture<>();
			elsewhere.schedule(() -> done.completeExceptionally(new IllegalStateException("failed late " + id)), 600,
					TimeUnit.MILLISECONDS);
			return done;
		}

		@DistributedLock(name = "work", key = "#id", leaseTime = "200ms")
		public Mono<String> monoFailsAfterItsLease(String id) {
			return Mono.delay(Duration.ofMillis(600)).then(Mono.error(new IllegalStateException("failed late " + id)));
		}

	}

	static class ReturnsFuture {

		@DistributedLock
		public Future<String> run() {
			return CompletableFuture.completedFuture("ran");
		}

	}

	static class ReturnsPublisher {

		@DistributedLock
		public Publisher<String> run() {
			return Mono.just("ran");
		}

	}

	static class ReturnsOwnStage {

		@DistributedLock
		public OwnFuture run() {
			return new OwnFuture();
		}

	}

	static class OwnFuture extends CompletableFuture<String> {

	}

	static class InterruptsAFuture {

		@DistributedLock(interruptOnLoss = true)
		public CompletableFuture<String> run() {
			return CompletableFuture.completedFuture("ran");
		}

	}

}
