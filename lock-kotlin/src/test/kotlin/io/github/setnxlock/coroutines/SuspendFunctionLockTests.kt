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
package io.github.setnxlock.coroutines

import io.github.setnxlock.annotation.DistributedLock
import io.github.setnxlock.annotation.DistributedLockAdvisor
import io.github.setnxlock.LockNotAcquiredException
import io.github.setnxlock.annotation.LockTimings
import io.github.setnxlock.annotation.OnLockFailure
import io.github.setnxlock.redis.SetnxLockRegistry
import io.github.setnxlock.redis.SetnxLockSettings
import io.github.setnxlock.test.RedisConnections
import io.github.setnxlock.test.RedisServerExtension
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.aop.config.AopConfigUtils
import org.springframework.beans.factory.BeanCreationException
import org.springframework.beans.factory.ObjectProvider
import org.springframework.beans.factory.config.BeanDefinition
import org.springframework.context.annotation.AnnotationConfigApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Role
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory
import org.springframework.data.redis.core.StringRedisTemplate

/**
 * [DistributedLock] on Kotlin suspend functions, with kotlinx-coroutines-reactor on the
 * class path: the lock is held from when the coroutine starts to when it completes,
 * fails or is cancelled; in applications of their own, each with its own connection and
 * registry, against a real Redis.
 */
class SuspendFunctionLockTests {

	companion object {

		@JvmField
		@RegisterExtension
		val redisServer = RedisServerExtension()

	}

	private val contexts = mutableListOf<AnnotationConfigApplicationContext>()

	@AfterEach
	fun close() {
		contexts.forEach { it.close() }
	}

	@Test
	fun callsForOneIdFromTwoApplicationsRunOneAfterAnother(): Unit = runBlocking(Dispatchers.Default) {
		val first = start(Work::class.java)
		val second = start(Work::class.java)
		val results = (0 until 6).map { i -> async { (if (i % 2 == 0) first else second).charge("42") } }.awaitAll()
		assertThat(results).containsOnly("charged 42")
		val spans = (first.spans + second.spans).sortedBy { it.first }
		assertThat(spans).hasSize(6)
		for (i in 1 until spans.size) {
			assertThat(spans[i].first).`as`("start of run %d after the end of the one before", i)
				.isGreaterThanOrEqualTo(spans[i - 1].second)
		}
		assertThat(redis().hasKey("lock:work:42")).isFalse()
	}

	@Test
	fun cancellingTheCoroutineReleasesTheLockAtOnce(): Unit = runBlocking(Dispatchers.Default) {
		val work = start(Work::class.java)
		val call = launch { work.hang("9") }
		work.hanging.await()
		// The lease is the registry's default of 30 s, renewed while held: a key gone
		// within 10 s of the cancel was released, not left to expire.
		assertThat(redis().getExpire("lock:work:9", TimeUnit.SECONDS)).isGreaterThan(10)
		call.cancelAndJoin()
		// The function runs in a coroutine of Spring's, whose cancel follows the
		// caller's from the cancelled subscription, on a thread of its own.
		withTimeout(10_000) { work.cancelled.await() }
		awaitKeyGone("lock:work:9", Duration.ofSeconds(10))
	}

	@Test
	fun theCleanUpOfACancelledFunctionRunsOnAfterTheRelease(): Unit = runBlocking(Dispatchers.Default) {
		// As documented: the function runs on its caller's dispatcher, which resumes it for
		// its cancel on a thread the library cannot see, after the cancel returned.
		assertTheNextHolderRunsBesideACancelledCall("10") { hangThenCleanUp(it) }
	}

	@Test
	fun workOnAnotherDispatcherRunsOnAfterTheReleaseOfACancelledCall(): Unit = runBlocking(Dispatchers.Default) {
		// As documented: the block the function waits for on another dispatcher runs on
		// unseen.
		assertTheNextHolderRunsBesideACancelledCall("11") { blockElsewhere(it) }
	}

	@Test
	fun aFailingCallReleasesAndKeepsItsError(): Unit = runBlocking(Dispatchers.Default) {
		val work = start(Work::class.java)
		val failure = assertThrows<IllegalStateException> { work.fail("7") }
		assertThat(failure).hasMessage("could not charge 7")
		assertThat(redis().hasKey("lock:work:7")).isFalse()
		// Released, not left to expire: the next call takes the key at once.
		assertThat(work.charge("7")).isEqualTo("charged 7")
	}

	@Test
	fun aCallThatCannotHaveTheLockThrowsSkipsOrFallsBack(): Unit = runBlocking(Dispatchers.Default) {
		val work = start(Work::class.java)
		val holder = start(Work::class.java)
		// A hold of the other application's, not of a thread: this coroutine may resume
		// on another one.
		val held = holder.registry.obtain("work:5", "work").acquireAsync(Duration.ofSeconds(5)).await().orElseThrow()
		try {
			val thrown = assertThrows<LockNotAcquiredException> { work.chargeAtOnce("5") }
			assertThat(thrown.lockName).isEqualTo("work")
			assertThat(work.skipNullable("5")).isNull()
			work.skipUnit("5")
			assertThat(work.fallBackSuspending("5")).isEqualTo("suspending fallback 5 after LockNotAcquiredException")
			assertThat(work.fallBackPlain("5")).isEqualTo("plain fallback 5")
			assertThat(work.runs.get()).isZero()
		}
		finally {
			held.release().await()
		}
		assertThat(work.skipNullable("5")).isEqualTo("ran 5")
		work.skipUnit("5")
		assertThat(work.runs.get()).isEqualTo(2)
	}

	@Test
	fun aFlowIsHeldWhileItIsCollected(): Unit = runBlocking(Dispatchers.Default) {
		val work = start(Work::class.java)
		val flow = work.flow("3")
		// The function returned its flow without taking the lock: collecting it does.
		assertThat(redis().hasKey("lock:work:3")).isFalse()
		assertThat(flow.toList()).containsExactly("3 held", "3 held")
		assertThat(redis().hasKey("lock:work:3")).isFalse()
	}

	@Test
	fun skippingANonNullResultFailsStartUp() {
		assertThatExceptionOfType(BeanCreationException::class.java)
			.isThrownBy { start(SkipsNonNull::class.java) }
			.satisfies({ ex ->
				assertThat(causes(ex)).anySatisfy { message ->
					assertThat(message).contains("onFailure SKIP would complete this suspend function with null")
				}
			})
	}

	/**
	 * Cancel a call of one application once it has begun, and show that the other
	 * application's call of the same key runs while the first one's work still blocks.
	 */
	private suspend fun assertTheNextHolderRunsBesideACancelledCall(id: String, call: suspend Work.(String) -> Unit) =
		coroutineScope {
			val first = start(Work::class.java)
			val second = start(Work::class.java)
			try {
				val running = launch { first.call(id) }
				first.hanging.await()
				running.cancelAndJoin()
				assertThat(second.charge(id)).isEqualTo("charged $id")
				withTimeout(10_000) {
					while (!first.blocked.get()) {
						delay(10)
					}
				}
			}
			finally {
				first.gate.countDown()
			}
		}

	private suspend fun awaitKeyGone(key: String, limit: Duration) {
		withTimeout(limit.toMillis()) {
			while (redis().hasKey(key)) {
				delay(20)
			}
		}
	}

	private fun causes(failure: Throwable): List<String> =
		generateSequence(failure) { it.cause }.map { it.message ?: "" }.toList()

	private fun redis(): StringRedisTemplate = contexts[0].getBean(StringRedisTemplate::class.java)

	private fun <T : Any> start(bean: Class<T>): T {
		val context = AnnotationConfigApplicationContext()
		contexts.add(context)
		// What Spring Boot's AOP auto-configuration does: proxies for the advisor's beans.
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(context)
		context.register(Application::class.java, bean)
		context.refresh()
		return context.getBean(bean)
	}

	@Configuration(proxyBeanMethods = false)
	open class Application {

		@Bean(destroyMethod = "destroy")
		open fun connectionFactory(): LettuceConnectionFactory =
			RedisConnections.create(redisServer.server(), Duration.ofSeconds(2))

		@Bean
		open fun redisTemplate(connectionFactory: LettuceConnectionFactory): StringRedisTemplate =
			RedisConnections.template(connectionFactory)

		@Bean(destroyMethod = "close")
		open fun registry(redisTemplate: StringRedisTemplate) =
			SetnxLockRegistry(redisTemplate, SetnxLockSettings.defaults())

		companion object {

			@JvmStatic
			@Bean
			@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
			fun distributedLockAdvisor(registry: ObjectProvider<SetnxLockRegistry>) =
				DistributedLockAdvisor({ registry.getObject() }, { LockTimings.withDefaultWait(Duration.ofSeconds(10)) })

		}

	}

	/**
	 * Suspend functions under the lock (those that are to find it held wait 1 s, not 0: a
	 * first answer from Redis may take longer on a loaded machine, which would be a
	 * LockAccessException); open, as Kotlin classes and members are not, for
	 * Spring's class-based proxy, which would otherwise read the fields of its own empty
	 * instance.
	 */
	open class Work(open val registry: SetnxLockRegistry) {

		open val spans: MutableList<Pair<Long, Long>> = CopyOnWriteArrayList()

		open val runs = AtomicInteger()

		open val hanging = CompletableDeferred<Unit>()

		open val cancelled = CompletableDeferred<Unit>()

		open val gate = CountDownLatch(1)

		open val blocked = AtomicBoolean()

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun charge(id: String): String {
			val start = System.nanoTime()
			delay(150)
			spans.add(start to System.nanoTime())
			return "charged $id"
		}

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun hang(id: String) {
			hanging.complete(Unit)
			try {
				awaitCancellation()
			}
			catch (ex: CancellationException) {
				cancelled.complete(Unit)
				throw ex
			}
		}

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun hangThenCleanUp(id: String) {
			hanging.complete(Unit)
			try {
				awaitCancellation()
			}
			finally {
				// Cleanup that blocks, such as closing a connection.
				blocked.set(true)
				passGate()
				blocked.set(false)
			}
		}

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun blockElsewhere(id: String) = withContext(Dispatchers.IO) {
			blocked.set(true)
			hanging.complete(Unit)
			passGate()
			blocked.set(false)
		}

		/** Blocks until the test opens the gate, through interrupts, as much blocking code does. */
		private fun passGate() {
			while (gate.count > 0) {
				try {
					gate.await()
				}
				catch (ex: InterruptedException) {
					// carried on regardless
				}
			}
		}

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun fail(id: String): String {
			delay(10)
			throw IllegalStateException("could not charge $id")
		}

		@DistributedLock(name = "work", key = "#p0", waitTime = "1s")
		open suspend fun chargeAtOnce(id: String): String {
			runs.incrementAndGet()
			return "charged $id"
		}

		@DistributedLock(name = "work", key = "#p0", waitTime = "1s", onFailure = OnLockFailure.SKIP)
		open suspend fun skipNullable(id: String): String? {
			delay(10)
			runs.incrementAndGet()
			return "ran $id"
		}

		@DistributedLock(name = "work", key = "#p0", waitTime = "1s", onFailure = OnLockFailure.SKIP)
		open suspend fun skipUnit(id: String) {
			delay(10)
			runs.incrementAndGet()
		}

		@DistributedLock(name = "work", key = "#p0", waitTime = "1s", onFailure = OnLockFailure.FALLBACK,
			fallback = "suspendingFallback")
		open suspend fun fallBackSuspending(id: String): String {
			runs.incrementAndGet()
			return "charged $id"
		}

		open suspend fun suspendingFallback(id: String, failure: LockNotAcquiredException): String {
			delay(10)
			return "suspending fallback $id after ${failure.javaClass.simpleName}"
		}

		@DistributedLock(name = "work", key = "#p0", waitTime = "1s", onFailure = OnLockFailure.FALLBACK,
			fallback = "plainFallback")
		open suspend fun fallBackPlain(id: String): String {
			runs.incrementAndGet()
			return "charged $id"
		}

		open fun plainFallback(id: String): String = "plain fallback $id"

		@DistributedLock(name = "work", key = "#p0")
		open suspend fun flow(id: String): Flow<String> = flow {
			repeat(2) {
				delay(10)
				emit(if (registry.obtain("work:$id", "work").isLocked) "$id held" else "$id free")
			}
		}

	}

	open class SkipsNonNull {

		@DistributedLock(name = "work", key = "#p0", onFailure = OnLockFailure.SKIP)
		open suspend fun charge(id: String): String = "charged $id"

	}

}
