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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

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

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The failures of {@link DistributedLock} calls whose arguments are personal data: each
 * names the lock and the method, never an argument's value, here {@value #SECRET}. What
 * an expression or an argument's own code threw stays available as the cause.
 *
 * @author setnx-lock authors
 */
class ArgumentsStayOutOfMessagesTests {

	private static final String SECRET = "secret-4711";

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	/** Everything the library logs, the registry's engine included. */
	private final CapturedLog log = CapturedLog.of("io.github.setnxlock");

	private AnnotationConfigApplicationContext context;

	private LettuceConnectionFactory otherFactory;

	/**
	 * A registry of another "instance", to hold locks the bean under test contends for.
	 */
	private SetnxLockRegistry other;

	private Customers customers;

	@BeforeEach
	void start() {
		this.context = LockedApplication.start(redisServer.server(), Map.of(), Customers.class);
		this.customers = this.context.getBean(Customers.class);
		Customers.meanwhile = () -> {
		};
		this.otherFactory = RedisConnections.create(redisServer.server(), Duration.ofSeconds(2));
		this.other = new SetnxLockRegistry(RedisConnections.template(this.otherFactory), SetnxLockSettings.defaults());
	}

	@AfterEach
	void stop() {
		this.context.close();
		this.other.close();
		RedisConnections.destroy(this.otherFactory);
		assertThat(this.log.lines()).noneMatch((line) -> line.contains(SECRET));
		this.log.close();
	}

	@Test
	void aLockHeldElsewhereNamesTheLockAndTheMethodButKeepsTheKeyForCode() {
		holdElsewhere(() -> assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> this.customers.update(SECRET))
			.satisfies((ex) -> {
				assertThat(ex.getHolder()).isNotNull().doesNotContain(SECRET);
				assertThat(ex).hasMessage("Lock 'customer' of " + Customers.class.getName()
						+ ".update(String) was held by " + ex.getHolder() + " for the whole wait of PT0S");
				assertThat(ex.getKey()).isEqualTo("customer:" + SECRET);
			}));
	}

	@Test
	void anInterruptedWaitNamesTheLockAndTheMethod() {
		holdElsewhere(() -> {
			Thread.currentThread().interrupt();
			try {
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> this.customers.update(SECRET))
					.withMessage("Interrupted while waiting for lock 'customer' of " + Customers.class.getName()
							+ ".update(String)")
					.withCauseInstanceOf(InterruptedException.class)
					.satisfies(ArgumentsStayOutOfMessagesTests::assertNoSecretIn);
			}
			finally {
				Thread.interrupted();
			}
		});
	}

	@Test
	void theFailureAFallbackGetsNamesTheLockAndTheMethod() {
		holdElsewhere(() -> assertThat(this.customers.withFallback(SECRET))
			.matches("fallback after Lock 'customer' of " + Pattern.quote(Customers.class.getName())
					+ "\\.withFallback\\(String\\) was held by [^ ]+ for the whole wait of PT0S")
			.doesNotContain(SECRET));
	}

	@Test
	void anAsynchronousMethodsFailureNamesTheLockAndTheMethod() {
		holdElsewhere(() -> assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> this.customers.later(SECRET).get(30, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class)
			.satisfies((ex) -> assertNoSecretIn(ex)));
	}

	@Test
	void aLockLostWhileTheMethodRanNamesTheLockAndTheMethodButKeepsTheKeyForCode() {
		// Another client takes the key while the method runs, for a moment: the release
		// finds its value (a key that is simply gone is no loss by itself).
		String key = "lock:customer:" + SECRET;
		Customers.meanwhile = () -> redisServer.server().execute("SET", key, "another-client", "PX", "100");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> this.customers.update(SECRET))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).startsWith("Lock 'customer' of " + Customers.class.getName()
						+ ".update(String): Lock '<key>' was lost before unlock()");
				assertNoSecretIn(ex);
				assertThat(ex.getKey()).isEqualTo("customer:" + SECRET);
			});
		awaitGone(key);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> this.customers.later(SECRET).get(30, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(LockLostException.class)
			.satisfies(ArgumentsStayOutOfMessagesTests::assertNoSecretIn);
		awaitGone(key);
		StepVerifier.create(this.customers.reactively(SECRET))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockLostException.class)
				.satisfies(ArgumentsStayOutOfMessagesTests::assertNoSecretIn))
			.verify(Duration.ofSeconds(30));
	}

	@Test
	void redisUnreachableNamesTheLockAndTheMethodButKeepsTheKeyForCode() {
		RedisServer stopped = RedisServer.start();
		stopped.close();
		AnnotationConfigApplicationContext unreachable = LockedApplication.start(stopped, Map.of(), Customers.class);
		try {
			assertThatExceptionOfType(LockAccessException.class)
				.isThrownBy(() -> unreachable.getBean(Customers.class).update(SECRET))
				.satisfies((ex) -> {
					assertThat(ex.getMessage())
						.startsWith("Lock 'customer' of " + Customers.class.getName() + ".update(String): ");
					assertNoSecretIn(ex);
					assertThat(ex.getKey()).isEqualTo("customer:" + SECRET);
				});
		}
		finally {
			unreachable.close();
		}
	}

	@Test
	void anExpressionThatFailsOnAValueIsWrappedWithTheExpressionAndTheMethod() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.customers.byNumber(SECRET))
			.withMessage("Could not evaluate key 'T(java.lang.Integer).parseInt(#id)' of @DistributedLock on "
					+ Customers.class.getName() + ".byNumber(String) (java.lang.NumberFormatException)")
			// The cause, the JDK's, quotes the value; it is there for whoever needs it.
			.satisfies((ex) -> assertThat(StartUpFailures.causes(ex.getCause())).anyMatch((m) -> m.contains(SECRET)));
	}

	@Test
	void aToStringThatFailsOnAValueIsWrappedWithTheExpressionAndTheMethod() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.customers.byCard(new Card(SECRET)))
			.withMessage("Could not evaluate key '#card' of @DistributedLock on " + Customers.class.getName()
					+ ".byCard(Card) (java.lang.IllegalStateException)")
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void aKeyThatEvaluatesToNothingOrToAnOpaqueObjectNamesNoArgument() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.customers.nullKey(SECRET))
			.withMessage("Key '#id.length() > 100 ? #id : null' of @DistributedLock on " + Customers.class.getName()
					+ ".nullKey(String) evaluated to null");
		assertThatIllegalArgumentException().isThrownBy(() -> this.customers.opaque(new Opaque(SECRET)))
			.withMessage("Key '#value' of @DistributedLock on " + Customers.class.getName()
					+ ".opaque(Opaque) evaluated to a " + Opaque.class.getName()
					+ ", which has no toString() of its own; use one of its properties, such as its id");
	}

	private static void assertNoSecretIn(Throwable failure) {
		assertThat(StartUpFailures.causes(failure)).noneMatch((message) -> message.contains(SECRET));
	}

	private void holdElsewhere(Runnable whileHeld) {
		LeasedLock lock = this.other.obtain("customer:" + SECRET);
		lock.lock();
		try {
			whileHeld.run();
		}
		finally {
			lock.unlock();
		}
	}

	/** A card whose {@code toString()} fails, quoting its number. */
	record Card(String number) {

		@Override
		public String toString() {
			throw new IllegalStateException("cannot print card " + this.number);
		}

	}

	/** Something without a {@code toString()} of its own. */
	static final class Opaque {

		final String value;

		Opaque(String value) {
			this.value = value;
		}

	}

	private static void awaitGone(String key) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Long.valueOf(0).equals(redisServer.server().execute("EXISTS", key)));
	}

	static class Customers {

		/** What a method does while it holds its lock. */
		static volatile Runnable meanwhile;

		@DistributedLock(name = "customer", key = "#id", waitTime = "0s")
		public void update(String id) {
			meanwhile.run();
		}

		@DistributedLock(name = "customer", key = "#id", waitTime = "0s")
		public Mono<String> reactively(String id) {
			return Mono.fromCallable(() -> {
				meanwhile.run();
				return "ran";
			});
		}

		@DistributedLock(name = "customer", key = "#id", waitTime = "0s", onFailure = OnLockFailure.FALLBACK,
				fallback = "fallback")
		public String withFallback(String id) {
			return "ran";
		}

		String fallback(String id, LockNotAcquiredException failure) {
			return "fallback after " + failure.getMessage();
		}

		@DistributedLock(name = "customer", key = "#id", waitTime = "500ms")
		public CompletableFuture<String> later(String id) {
			meanwhile.run();
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLock(key = "T(java.lang.Integer).parseInt(#id)")
		public void byNumber(String id) {
		}

		@DistributedLock(key = "#card")
		public void byCard(Card card) {
		}

		@DistributedLock(key = "#id.length() > 100 ? #id : null")
		public void nullKey(String id) {
		}

		@DistributedLock(key = "#value")
		public void opaque(Opaque value) {
		}

	}

}
