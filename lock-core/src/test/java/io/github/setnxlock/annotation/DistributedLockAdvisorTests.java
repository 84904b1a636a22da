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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
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

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.MapPropertySource;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock} methods of Spring beans, locked in a real Redis through
 * {@link DistributedLockAdvisor}: each failure action, SpEL keys, the order with
 * {@code @Transactional}, hold-at-least, and annotations rejected at start-up.
 *
 * @author setnx-lock authors
 */
class DistributedLockAdvisorTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	private LettuceConnectionFactory otherFactory;

	/**
	 * A registry of another "instance", to hold locks the beans under test contend for.
	 */
	private SetnxLockRegistry other;

	private StringRedisTemplate redis;

	@BeforeEach
	void connect() {
		this.otherFactory = RedisConnections.create(redisServer.server(), Duration.ofSeconds(2));
		this.redis = RedisConnections.template(this.otherFactory);
		this.other = new SetnxLockRegistry(this.redis, SetnxLockSettings.defaults());
	}

	@AfterEach
	void disconnect() {
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
		this.other.close();
		RedisConnections.destroy(this.otherFactory);
	}

	@Test
	void whenTheLockIsFreeThenTheMethodRunsAndTheKeyIsGoneAfterwards() {
		Locked locked = start(Locked.class);
		assertThat(locked.byId("a")).isEqualTo("ran a while lock:Locked.byId:a was held");
		assertThat(this.redis.hasKey("lock:Locked.byId:a")).isFalse();
	}

	@Test
	void aLockHeldElsewhereIsSpringsCannotAcquireLockException() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.byId:a", () -> {
			try {
				locked.byId("a");
				throw new AssertionError("ran while the lock was held elsewhere");
			}
			catch (CannotAcquireLockException ex) {
				assertThat(ex).isInstanceOf(LockNotAcquiredException.class)
					.isInstanceOf(ConcurrencyFailureException.class)
					.isInstanceOf(TransientDataAccessException.class);
			}
		});
	}

	@Test
	void whenHeldElsewhereThenThrowNamesTheLock() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.byId:a",
				() -> assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> locked.byId("a"))
					.satisfies((ex) -> {
						// Who held it: the other registry, on this thread, in this
						// process.
						assertThat(ex.getHolder()).endsWith("/" + ProcessHandle.current().pid() + "/"
								+ Thread.currentThread().getName().replaceAll("[^A-Za-z0-9._-]", "-"));
						assertThat(ex).hasMessage("Lock 'Locked.byId' of " + Locked.class.getName()
								+ ".byId(String) was held by " + ex.getHolder() + " for the whole wait of PT0S");
						assertThat(ex.getLockName()).isEqualTo("Locked.byId");
						assertThat(ex.getKey()).isEqualTo("Locked.byId:a");
						assertThat(ex.getWaitTime()).isEqualTo(Duration.ZERO);
					}));
	}

	@Test
	void differentArgumentsDoNotContendAndEqualOnesDo() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.byId:a", () -> {
			assertThat(locked.byId("b")).startsWith("ran b");
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> locked.byId("a"));
		});
	}

	@Test
	void argumentsAreReachableByIndexByNameAndThroughTheRoot() {
		Locked locked = start(Locked.class);
		assertThat(locked.keys(new Order("o-1"), 7)).containsExactly("lock:orders:o-1:7", "lock:orders:o-1:7",
				"lock:orders:o-1:7");
	}

	@Test
	void skipReturnsNothingForEachReturnType() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.skipped:a", () -> {
			assertThat(locked.skipOptional("a")).isEmpty();
			assertThat(locked.skipObject("a")).isNull();
			locked.skipVoid("a");
			assertThat(locked.runs()).isZero();
		});
		assertThat(locked.skipOptional("a")).contains("ran");
		assertThat(locked.runs()).isEqualTo(1);
	}

	@Test
	void aSkippedCallIsLoggedAtDebugWithoutItsKey() {
		Locked locked = start(Locked.class);
		try (CapturedLog log = CapturedLog.of(DistributedLockInterceptor.class.getName()).atDebug()) {
			holdElsewhere("Locked.skipped:secret-id", () -> locked.skipVoid("secret-id"));
			assertThat(log.lines()).singleElement()
				.isEqualTo("DEBUG Skipped " + Locked.class.getName() + ".skipVoid(String): lock 'Locked.skipped'"
						+ " was held elsewhere for the whole wait of PT0S")
				.asString()
				.doesNotContain("secret-id");
		}
	}

	@Test
	void fallbackGetsTheArgumentsAndTheFailure() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.withFallback:a", () -> {
			assertThat(locked.withFallback("a")).isEqualTo("fallback a after Locked.withFallback:a");
			assertThat(locked.primitiveWithFallback("a")).isEqualTo(-1);
		});
		assertThat(locked.withFallback("a")).isEqualTo("ran a");
		assertThat(locked.primitiveWithFallback("a")).isEqualTo(1);
	}

	@Test
	void theMethodsExceptionPropagatesAndTheLockIsReleased() {
		Locked locked = start(Locked.class);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> locked.failing("a"))
			.withMessage("failed a");
		assertThat(this.redis.hasKey("lock:Locked.failing:a")).isFalse();
	}

	@Test
	void aKeyThatEvaluatesToNullIsAClearError() {
		Locked locked = start(Locked.class);
		assertThatIllegalArgumentException().isThrownBy(() -> locked.byId(null))
			.withMessageContaining("Key '#id' of @DistributedLock on")
			.withMessageContaining("Locked.byId(String)")
			.withMessageContaining("evaluated to null");
	}

	@Test
	void aLockLostBeforeTheMethodReturnedReachesTheCaller() {
		Locked locked = start(Locked.class);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> locked.outlivesItsLease("a"))
			.withMessageStartingWith("Lock 'Locked.outlivesItsLease' of ")
			.withMessageContaining("Lock '<key>' was lost before unlock()")
			// The key is built from the arguments: code reads it, messages do not show
			// it.
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("Locked.outlivesItsLease:a"));
	}

	@Test
	void placeholdersInDurationsAreResolved() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.placeholderWait:a",
				() -> assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> locked.placeholderWait("a"))
					.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(100))));
		Locked configured = start(Locked.class, Map.of("test.wait", "150ms"));
		holdElsewhere("Locked.placeholderWait:b",
				() -> assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> configured.placeholderWait("b"))
					.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(150))));
	}

	@Test
	void holdAtLeastKeepsTheLockAfterAFastCall() {
		Locked first = start(Locked.class);
		Locked second = start(Locked.class);
		assertThat(first.job()).isEqualTo(1);
		assertThat(this.redis.hasKey("lock:Locked.job")).isTrue();
		assertThat(this.redis.getExpire("lock:Locked.job", TimeUnit.MILLISECONDS)).isPositive()
			.isLessThanOrEqualTo(800);
		assertThat(second.job()).isNull();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.redis.hasKey("lock:Locked.job"));
		assertThat(second.job()).isEqualTo(1);
	}

	@Test
	void theLockIsTakenBeforeTheTransactionBeginsAndReleasedAfterItEnds() {
		AnnotationConfigApplicationContext context = context(Locked.class, Map.of());
		Locked locked = context.getBean(Locked.class);
		RecordingTransactionManager transactions = context.getBean(RecordingTransactionManager.class);
		locked.transactional(false);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> locked.transactional(true));
		assertThat(transactions.events).containsExactly("begin with lock held", "work with lock held",
				"commit with lock held", "begin with lock held", "work with lock held", "rollback with lock held");
		assertThat(this.redis.hasKey("lock:tx")).isFalse();
	}

	@Test
	void twoInstancesNeverRunTheMethodAtOnce() throws Exception {
		List<Locked> instances = List.of(start(Locked.class), start(Locked.class));
		Counter counter = new Counter();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				Locked instance = instances.get(t % 2);
				workers.add(threads.submit(() -> {
					for (int i = 0; i < 50; i++) {
						instance.increment(counter);
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(counter.overlaps).hasValue(0);
		assertThat(counter.value).isEqualTo(400);
	}

	@Test
	void theRootObjectGivesTheMethodAndArguments() {
		Locked locked = start(Locked.class);
		assertThat(locked.fromRoot("x")).isEqualTo("lock:roots:fromRoot:x");
	}

	@Test
	void arrayKeysAreRenderedByContentAndObjectsWithoutToStringAreRejected() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.byArray:{a, b}", () -> assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> locked.byArray(new String[] { "a", "b" })));
		assertThat(locked.byArray(new String[] { "a", "c" })).isEqualTo("{a, c}");
		assertThatIllegalArgumentException().isThrownBy(() -> locked.byObject(new Object()))
			.withMessageContaining("evaluated to a java.lang.Object, which has no toString() of its own");
	}

	@Test
	void anInterruptWhileWaitingThrowsAndKeepsTheInterrupt() {
		Locked locked = start(Locked.class);
		holdElsewhere("Locked.placeholderWait:a", () -> {
			Thread.currentThread().interrupt();
			try {
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> locked.placeholderWait("a"))
					.withCauseInstanceOf(InterruptedException.class);
				assertThat(Thread.currentThread().isInterrupted()).isTrue();
			}
			finally {
				Thread.interrupted();
			}
		});
	}

	@Test
	void aLostLockIsAttachedToTheMethodsOwnException() {
		Locked locked = start(Locked.class);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> locked.failsAfterItsLease("a"))
			.withMessage("failed late a")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class));
	}

	@Test
	void interruptOnLossStopsTheMethodWhenItsLeaseEnds() {
		Locked locked = start(Locked.class);
		long start = System.nanoTime();
		assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> locked.interruptedOnLoss("a"))
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
		assertThat(Thread.interrupted()).isFalse();
	}

	@Test
	void whenRedisIsDownThenTheCallFailsWhateverTheFailureAction() {
		try (RedisServer down = RedisServer.start()) {
			AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
			this.contexts.add(context);
			// Registered before the configuration class, so its @Bean of that name stands
			// back.
			context.registerBean("connectionFactory", LettuceConnectionFactory.class,
					() -> RedisConnections.create(down, Duration.ofMillis(500)));
			context.register(LockConfiguration.class, Locked.class);
			context.refresh();
			Locked locked = context.getBean(Locked.class);
			down.stop();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(() -> locked.skipObject("a"))
				.withMessageStartingWith("Lock 'Locked.skipped' of ")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("Locked.skipped:a"));
		}
	}

	@Test
	void annotationsOnInterfacesWorkThroughJdkProxiesAndNameTheImplementation() {
		Job job = start(InterfaceJob.class, Job.class);
		assertThat(org.springframework.aop.support.AopUtils.isJdkDynamicProxy(job)).isTrue();
		assertThat(job.run()).isEqualTo("ran");
		holdElsewhere("InterfaceJob.run",
				() -> assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(job::run));
	}

	@Test
	void inheritedMethodsLockPerSubclass() {
		AnnotationConfigApplicationContext context = context(List.of(JobA.class, JobB.class), Map.of());
		holdElsewhere("JobA.run", () -> {
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(context.getBean(JobA.class)::run);
			assertThat(context.getBean(JobB.class).run()).isEqualTo("ran");
		});
	}

	@Test
	void aBadAnnotationOnAnyMethodFailsStartUpWithJdkProxiesToo() {
		assertStartUpFails(BadSecondMethod.class,
				"@DistributedLock on " + BadSecondMethod.class.getName() + ".second(): waitTime must be a duration");
	}

	@Test
	void methodsAProxyCannotInterceptFailStartUp() {
		assertStartUpFails(PrivateMethod.class, "the method is private, so a Spring proxy cannot intercept it");
		assertStartUpFails(FinalMethod.class, "the method is final, so a Spring proxy cannot intercept it");
	}

	@Test
	void anUnresolvablePlaceholderOrAnEndlessLeaseFailsStartUp() {
		// A plain context leaves an unknown placeholder as it is; Spring Boot's fails on
		// it.
		assertStartUpFails(UnresolvablePlaceholder.class, "UnresolvablePlaceholder.run(): waitTime must be a duration"
				+ " such as '500ms', '5s' or 'PT5S', but was '${nowhere.wait}'");
		assertStartUpFails(EndlessLease.class, "holdAtLeast must be at most PT8760H, but was PT9600H");
	}

	@Test
	void anInvalidExpressionFailsStartUpNamingTheMethodAndTheExpression() {
		assertStartUpFails(BadExpression.class, "@DistributedLock on " + BadExpression.class.getName()
				+ ".run(String): key '#id +' is not a valid SpEL expression");
	}

	@Test
	void skippingAPrimitiveReturnFailsStartUp() {
		assertStartUpFails(SkipsPrimitive.class, "onFailure SKIP cannot skip a method that returns long");
	}

	@Test
	void aMissingFallbackFailsStartUp() {
		assertStartUpFails(MissingFallback.class, "fallback method 'nowhere' with parameters [class java.lang.String]");
	}

	@Test
	void aFallbackWithoutFallbackActionFailsStartUp() {
		assertStartUpFails(FallbackWithoutAction.class, "fallback 'other' is set but onFailure is THROW");
	}

	@Test
	void aBadDurationFailsStartUp() {
		assertStartUpFails(BadDuration.class,
				"waitTime must be a duration such as '500ms', '5s' or 'PT5S', but was 'soon'");
		assertStartUpFails(NegativeDuration.class, "leaseTime must not be negative, but was '-1s'");
	}

	private void assertStartUpFails(Class<?> bean, String message) {
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> start(bean))
			.satisfies((ex) -> assertThat(StartUpFailures.causes(ex))
				.anySatisfy((cause) -> assertThat(cause).contains(message)));
	}

	private void holdElsewhere(String key, Runnable whileHeld) {
		LeasedLock lock = this.other.obtain(key);
		lock.lock();
		try {
			whileHeld.run();
		}
		finally {
			lock.unlock();
		}
	}

	private <T> T start(Class<T> bean) {
		return start(bean, Map.of());
	}

	private <T> T start(Class<?> bean, Class<T> type) {
		return context(List.of(bean), Map.of()).getBean(type);
	}

	private <T> T start(Class<T> bean, Map<String, Object> properties) {
		return context(bean, properties).getBean(bean);
	}

	private AnnotationConfigApplicationContext context(Class<?> bean, Map<String, Object> properties) {
		return context(List.of(bean), properties);
	}

	private AnnotationConfigApplicationContext context(List<Class<?>> beans, Map<String, Object> properties) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		this.contexts.add(context);
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
		context.register(LockConfiguration.class);
		beans.forEach(context::register);
		context.refresh();
		return context;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class LockConfiguration {

		@Bean(destroyMethod = "destroy")
		LettuceConnectionFactory connectionFactory() {
			LettuceConnectionFactory factory = RedisConnections.create(redisServer.server(), Duration.ofSeconds(2));
			// Connected now, so a short wait in a test is not spent on connecting.
			factory.getConnection().close();
			return factory;
		}

		@Bean
		SetnxLockRegistry registry(LettuceConnectionFactory connectionFactory) {
			return new SetnxLockRegistry(RedisConnections.template(connectionFactory), SetnxLockSettings.defaults());
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static DistributedLockAdvisor distributedLockAdvisor(
				org.springframework.beans.factory.ObjectProvider<SetnxLockRegistry> registry) {
			return new DistributedLockAdvisor(registry::getObject,
					() -> LockTimings.withDefaultWait(Duration.ofSeconds(2)));
		}

		@Bean
		RecordingTransactionManager transactionManager(LettuceConnectionFactory connectionFactory) {
			return new RecordingTransactionManager(RedisConnections.template(connectionFactory));
		}

	}

	record Order(String id) {
	}

	static class Counter {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger overlaps = new AtomicInteger();

		int value;

	}

	static class Locked {

		private final AtomicInteger runs = new AtomicInteger();

		private final StringRedisTemplate redis;

		private final RecordingTransactionManager transactions;

		Locked(LettuceConnectionFactory connectionFactory, RecordingTransactionManager transactions) {
			this.redis = RedisConnections.template(connectionFactory);
			this.transactions = transactions;
		}

		public int runs() {
			return this.runs.get();
		}

		@DistributedLock(key = "#id", waitTime = "0s")
		public String byId(String id) {
			return "ran " + id + " while lock:Locked.byId:" + id + " was "
					+ (Boolean.TRUE.equals(this.redis.hasKey("lock:Locked.byId:" + id)) ? "held" : "free");
		}

		@DistributedLock(name = "orders", key = "#order.id() + ':' + #p1")
		public List<String> keys(Order order, int line) {
			return List.of(heldKey("lock:orders:" + order.id() + ":" + line),
					heldKey("lock:orders:" + order.id() + ":" + line), heldKey("lock:orders:o-1:7"));
		}

		private String heldKey(String key) {
			return Boolean.TRUE.equals(this.redis.hasKey(key)) ? key : "missing " + key;
		}

		@DistributedLock(name = "Locked.skipped", key = "#p0", waitTime = "0s", onFailure = OnLockFailure.SKIP)
		public Optional<String> skipOptional(String id) {
			this.runs.incrementAndGet();
			return Optional.of("ran");
		}

		@DistributedLock(name = "Locked.skipped", key = "#a0", waitTime = "0s", onFailure = OnLockFailure.SKIP)
		public String skipObject(String id) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@DistributedLock(name = "Locked.skipped", key = "#id", waitTime = "0s", onFailure = OnLockFailure.SKIP)
		public void skipVoid(String id) {
			this.runs.incrementAndGet();
		}

		@DistributedLock(key = "#id", waitTime = "0s", onFailure = OnLockFailure.FALLBACK,
				fallback = "fallbackWithFailure")
		public String withFallback(String id) {
			return "ran " + id;
		}

		String fallbackWithFailure(String id, LockNotAcquiredException failure) {
			return "fallback " + id + " after " + failure.getKey();
		}

		@DistributedLock(name = "Locked.withFallback", key = "#id", waitTime = "0s", onFailure = OnLockFailure.FALLBACK,
				fallback = "plainFallback")
		public int primitiveWithFallback(String id) {
			return 1;
		}

		private int plainFallback(String id) {
			return -1;
		}

		@DistributedLock(key = "#id")
		public void failing(String id) {
			throw new IllegalStateException("failed " + id);
		}

		@DistributedLock(key = "#id", leaseTime = "200ms")
		public void outlivesItsLease(String id) throws InterruptedException {
			Thread.sleep(500);
		}

		@DistributedLock(name = "roots", key = "#root.method.name + ':' + #root.args[0]")
		public String fromRoot(String id) {
			return heldKey("lock:roots:fromRoot:" + id);
		}

		@DistributedLock(key = "#p0", waitTime = "0s")
		public String byArray(String[] ids) {
			return "{" + String.join(", ", ids) + "}";
		}

		@DistributedLock(key = "#p0", waitTime = "0s")
		public void byObject(Object value) {
		}

		@DistributedLock(key = "#id", leaseTime = "200ms")
		public void failsAfterItsLease(String id) throws InterruptedException {
			Thread.sleep(500);
			throw new IllegalStateException("failed late " + id);
		}

		@DistributedLock(key = "#id", leaseTime = "200ms", interruptOnLoss = true)
		public void interruptedOnLoss(String id) throws InterruptedException {
			Thread.sleep(30_000);
		}

		@DistributedLock(key = "#id", waitTime = "${test.wait:100ms}")
		public void placeholderWait(String id) {
		}

		@DistributedLock(waitTime = "0s", onFailure = OnLockFailure.SKIP, holdAtLeast = "800ms")
		public Integer job() {
			return this.runs.incrementAndGet();
		}

		@DistributedLock(name = "tx")
		@Transactional
		public void transactional(boolean fail) {
			this.transactions.record("work");
			if (fail) {
				throw new IllegalStateException("rolled back");
			}
		}

		@DistributedLock(name = "counter", waitTime = "30s")
		public void increment(Counter counter) {
			if (counter.inside.incrementAndGet() != 1) {
				counter.overlaps.incrementAndGet();
			}
			int read = counter.value;
			Thread.yield();
			counter.value = read + 1;
			counter.inside.decrementAndGet();
		}

	}

	/**
	 * Records each step of a transaction with whether the lock of
	 * {@link Locked#transactional} was held in Redis at that moment.
	 */
	static class RecordingTransactionManager extends AbstractPlatformTransactionManager {

		private static final long serialVersionUID = 1L;

		final List<String> events = new CopyOnWriteArrayList<>();

		private final transient StringRedisTemplate redis;

		RecordingTransactionManager(StringRedisTemplate redis) {
			this.redis = redis;
		}

		void record(String step) {
			this.events
				.add(step + " with lock " + (Boolean.TRUE.equals(this.redis.hasKey("lock:tx")) ? "held" : "free"));
		}

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			record("begin");
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			record("commit");
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			record("rollback");
		}

	}

	interface Job {

		@DistributedLock(waitTime = "0s")
		String run();

	}

	static class InterfaceJob implements Job {

		@Override
		public String run() {
			return "ran";
		}

	}

	abstract static class BaseJob {

		@DistributedLock(waitTime = "0s")
		public String run() {
			return "ran";
		}

	}

	static class JobA extends BaseJob {

	}

	static class JobB extends BaseJob {

	}

	static class BadSecondMethod implements Job {

		@Override
		public String run() {
			return "ran";
		}

		@DistributedLock(waitTime = "soon")
		public void second() {
		}

	}

	static class PrivateMethod {

		@DistributedLock
		private void run() {
		}

	}

	static class FinalMethod {

		@DistributedLock
		public final void run() {
		}

	}

	static class UnresolvablePlaceholder {

		@DistributedLock(waitTime = "${nowhere.wait}")
		public void run() {
		}

	}

	static class EndlessLease {

		@DistributedLock(holdAtLeast = "400d")
		public void run() {
		}

	}

	static class BadExpression {

		@DistributedLock(key = "#id +")
		public void run(String id) {
		}

	}

	static class SkipsPrimitive {

		@DistributedLock(onFailure = OnLockFailure.SKIP)
		public long run() {
			return 1;
		}

	}

	static class MissingFallback {

		@DistributedLock(onFailure = OnLockFailure.FALLBACK, fallback = "nowhere")
		public String run(String id) {
			return id;
		}

	}

	static class FallbackWithoutAction {

		@DistributedLock(fallback = "other")
		public String run(String id) {
			return id;
		}

		String other(String id) {
			return id;
		}

	}

	static class BadDuration {

		@DistributedLock(waitTime = "soon")
		public void run() {
		}

	}

	static class NegativeDuration {

		@DistributedLock(leaseTime = "-1s")
		public void run() {
		}

	}

}
