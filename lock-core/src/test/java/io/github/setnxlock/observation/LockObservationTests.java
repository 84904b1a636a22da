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

package io.github.setnxlock.observation;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServerExtension;
import io.github.setnxlock.test.TcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * Waits for a lock and holds of it are observed, with the lock's name, protocol and
 * result as low-cardinality values and its key as a high-cardinality one.
 *
 * @author setnx-lock authors
 */
class LockObservationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void waitsAndHoldsAreObserved() throws Exception {
		TestObservationRegistry observations = TestObservationRegistry.create();
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.defaults())) {
			registry.setObservationRegistry(observations);
			LeasedLock lock = registry.obtain("orders:1", "orders");
			lock.lock();
			lock.unlock();
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.acquire")
				.that()
				.hasContextualNameEqualTo("acquire orders")
				.hasLowCardinalityKeyValue("name", "orders")
				.hasLowCardinalityKeyValue("protocol", "token")
				.hasLowCardinalityKeyValue("result", "acquired")
				.hasHighCardinalityKeyValue("setnx.lock.key", "orders:1")
				.hasBeenStarted()
				.hasBeenStopped();
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.hold")
				.that()
				.hasLowCardinalityKeyValue("result", "released")
				.hasBeenStopped();
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	@Test
	void aWaitThatEndsWithoutTheLockSaysHow() throws Exception {
		TestObservationRegistry observations = TestObservationRegistry.create();
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.defaults());
				SetnxLockRegistry other = new SetnxLockRegistry(RedisConnections.template(factory),
						SetnxLockSettings.defaults())) {
			registry.setObservationRegistry(observations);
			LeasedLock held = other.obtain("busy");
			held.lock();
			assertThat(registry.obtain("busy").tryLock(Duration.ofMillis(500))).isFalse();
			held.unlock();
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.acquire")
				.that()
				.hasLowCardinalityKeyValue("name", "unnamed")
				.hasLowCardinalityKeyValue("result", "timeout")
				.hasBeenStopped();
			TestObservationRegistryAssert.assertThat(observations)
				.hasNumberOfObservationsWithNameEqualTo("setnx.lock.hold", 0);
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	@Test
	void anAsynchronousHoldIsObservedUntilItsReleaseOnAnotherThread() throws Exception {
		TestObservationRegistry observations = TestObservationRegistry.create();
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.defaults())) {
			registry.setObservationRegistry(observations);
			LockHandle handle = registry.obtain("orders:2", "orders")
				.acquireAsync(Duration.ofSeconds(5))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.acquire")
				.that()
				.hasLowCardinalityKeyValue("result", "acquired")
				.hasBeenStopped();
			// Held while the work goes on elsewhere: started, not stopped.
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.hold")
				.that()
				.hasBeenStarted()
				.isNotStopped();
			CompletableFuture.runAsync(() -> handle.release().join()).get(5, TimeUnit.SECONDS);
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("setnx.lock.hold")
				.that()
				.hasLowCardinalityKeyValue("name", "orders")
				.hasLowCardinalityKeyValue("result", "released")
				.hasBeenStopped();
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	@Test
	void aFailingObservationHandlerNeverStopsALock() throws Exception {
		ObservationRegistry failing = ObservationRegistry.create();
		failing.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {

			@Override
			public void onStart(Observation.Context context) {
				throw new IllegalStateException("handler failed on start");
			}

			@Override
			public void onStop(Observation.Context context) {
				throw new IllegalStateException("handler failed on stop");
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
				SetnxLockSettings.defaults())) {
			registry.setObservationRegistry(failing);
			LeasedLock lock = registry.obtain("observed:badly");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			lock.unlock();
			LockHandle handle = lock.acquireAsync(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS).orElseThrow();
			handle.release().get(5, TimeUnit.SECONDS);
			assertThat(redis.server().execute("EXISTS", "lock:observed:badly")).isEqualTo(0L);
			assertThat(registry.operations().heldLocks()).isEmpty();
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	@Test
	void theNamesAndLowCardinalityKeysAreThoseOfTheTimersDashboardsRead() {
		assertThat(DefaultLockObservationConvention.forWaits().getName()).isEqualTo("setnx.lock.acquire");
		assertThat(DefaultLockObservationConvention.forHolds().getName()).isEqualTo("setnx.lock.hold");
		for (LockObservationDocumentation observation : LockObservationDocumentation.values()) {
			assertThat(Arrays.stream(observation.getLowCardinalityKeyNames()).map(KeyName::asString))
				.containsExactly("name", "protocol", "result");
		}
	}

	@Test
	void aConventionOfAnyNameNamesItsSpanAfterTheNamesLastPart() {
		LockObservationContext context = new LockObservationContext("orders:1", "", "token");
		assertThat(new DefaultLockObservationConvention.Waits("wait").getContextualName(context))
			.isEqualTo("wait orders:1");
		assertThat(new DefaultLockObservationConvention.Holds("orders.lock.hold").getContextualName(context))
			.isEqualTo("hold orders:1");
	}

	/**
	 * An asynchronous hold whose fencing draw finds its key gone ends, and its
	 * observation stops, on the registry's renewal thread, as a renewal's loss does:
	 * never on the thread that brought Redis's answer (the client's event loop, which
	 * observation handlers must not hold up).
	 */
	@Test
	void anAsynchronousHoldLostAtItsDrawStopsItsObservationOffTheClientsThreads() throws Exception {
		ObservationRegistry observations = ObservationRegistry.create();
		List<String> stoppedOn = holdsStoppedOn(observations);
		// The draw's answer comes a while after it is sent, on the client's event loop.
		withLateAnswersTo(TokenLockCommands.FENCE_DRAW, observations, (registry, proxy) -> {
			LockHandle handle = registry.obtain("drawn-gone")
				.acquireAsync(Duration.ofSeconds(5))
				.get(5, TimeUnit.SECONDS)
				.orElseThrow();
			redis.server().execute("DEL", "lock:drawn-gone");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> handle.fencingTokenAsync().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> !stoppedOn.isEmpty());
			assertThat(stoppedOn).singleElement().asString().startsWith("setnx-lock-renewal");
		});
	}

	/**
	 * A thread's release ends its hold, and stops its observation, on that thread, also
	 * when Redis's answer comes late: the thread runs the release's steps itself.
	 */
	@Test
	void aThreadsReleaseWhoseAnswerComesLateEndsTheHoldOnThatThread() throws Exception {
		ObservationRegistry observations = ObservationRegistry.create();
		List<String> stoppedOn = holdsStoppedOn(observations);
		withLateAnswersTo(TokenLockCommands.RELEASE, observations, (registry, proxy) -> {
			LeasedLock lock = registry.obtain("released-late");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			lock.unlock();
			assertThat(proxy.delayedRequests(call(TokenLockCommands.RELEASE))).isOne();
			assertThat(stoppedOn).containsExactly(Thread.currentThread().getName());
		});
	}

	/**
	 * Run a test on a registry whose calls of a script are answered 200 ms after they
	 * were sent, on the client's event loop.
	 */
	private static void withLateAnswersTo(LockScript script, ObservationRegistry observations, LateAnswersTest test)
			throws Exception {
		TcpProxy proxy = TcpProxy.start(redis.server());
		proxy.delayRepliesTo(call(script), Duration.ofMillis(200));
		LettuceConnectionFactory factory = RedisConnections.create(proxy, Duration.ofSeconds(2));
		try (proxy;
				SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory),
						SetnxLockSettings.defaults())) {
			registry.setObservationRegistry(observations);
			test.run(registry, proxy);
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	/** What a call of a script holds on the wire. */
	private static String call(LockScript script) {
		return "EVALSHA\r\n$40\r\n" + script.sha1();
	}

	@FunctionalInterface
	private interface LateAnswersTest {

		void run(SetnxLockRegistry registry, TcpProxy proxy) throws Exception;

	}

	/** Note the thread that stops each hold's observation. */
	private static List<String> holdsStoppedOn(ObservationRegistry observations) {
		List<String> stoppedOn = new CopyOnWriteArrayList<>();
		observations.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				if ("setnx.lock.hold".equals(context.getName())) {
					stoppedOn.add(Thread.currentThread().getName());
				}
			}

		});
		return stoppedOn;
	}

}
