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
package io.github.setnxlock.kotlin

import io.github.setnxlock.LockLostException
import io.github.setnxlock.LockNotAcquiredException
import io.github.setnxlock.redis.SetnxLockRegistry
import io.github.setnxlock.redis.SetnxLockSettings
import io.github.setnxlock.test.RedisConnections
import io.github.setnxlock.test.RedisServerExtension
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory

/**
 * `LeasedLock.withLock` against a real Redis, from two registries: the action runs alone
 * and holds the lock, the lock is released however it ends, and a cancelled coroutine keeps
 * the lock until its action has ended.
 */
class WithLockTests {

	companion object {

		@JvmField
		@RegisterExtension
		val redisServer = RedisServerExtension()

	}

	private val factories = mutableListOf<LettuceConnectionFactory>()

	private val registries = mutableListOf<SetnxLockRegistry>()

	private fun registry(): SetnxLockRegistry {
		val factory = RedisConnections.create(redisServer.server(), Duration.ofSeconds(2))
		factories.add(factory)
		val registry = SetnxLockRegistry(RedisConnections.template(factory), SetnxLockSettings.defaults())
		registries.add(registry)
		return registry
	}

	private fun exists(key: String): Boolean = redisServer.server().execute("EXISTS", "lock:$key") == 1L

	@AfterEach
	fun close() {
		registries.forEach { it.close() }
		factories.forEach { RedisConnections.destroy(it) }
	}

	@Test
	fun theActionRunsHoldingTheLockWhichIsReleasedAfterIt(): Unit = runBlocking {
		val lock = registry().obtain("kotlin:held")
		val result = lock.withLock(Duration.ofSeconds(5)) {
			"held ${exists("kotlin:held")}"
		}
		assertThat(result).isEqualTo("held true")
		assertThat(exists("kotlin:held")).isFalse()
		val failure = assertThrows<IOException> {
			lock.withLock(Duration.ZERO) { throw IOException("disk full") }
		}
		assertThat(failure.suppressed).isEmpty()
		assertThat(exists("kotlin:held")).isFalse()
	}

	@Test
	fun actionsOfManyCoroutinesInTwoRegistriesRunOneAtATime(): Unit = runBlocking(Dispatchers.Default) {
		val registries = listOf(registry(), registry())
		var counter = 0
		(0 until 8).map { i ->
			async(Dispatchers.IO) {
				val lock = registries[i % 2].obtain("kotlin:counter")
				repeat(25) {
					lock.withLock(Duration.ofSeconds(30)) {
						val seen = counter
						yield()
						counter = seen + 1
					}
				}
			}
		}.awaitAll()
		assertThat(counter).isEqualTo(200)
	}

	@Test
	fun aLockHeldElsewhereIsNotAcquiredAndTheActionDoesNotRun(): Unit = runBlocking {
		val held = registry().obtain("kotlin:busy")
		assertThat(held.tryLock()).isTrue()
		try {
			var ran = false
			val failure = assertThrows<LockNotAcquiredException> {
				registry().obtain("kotlin:busy").withLock(Duration.ofMillis(100)) { ran = true }
			}
			assertThat(failure.holder).endsWith("/" + ProcessHandle.current().pid() + "/" +
				Thread.currentThread().name.replace(Regex("[^A-Za-z0-9._-]"), "-"))
			assertThat(failure.message).isEqualTo("Lock 'kotlin:busy' was held by ${failure.holder} for the whole wait of PT0.1S")
			assertThat(ran).isFalse()
		}
		finally {
			held.unlock()
		}
	}

	@Test
	fun aCancelledCoroutineKeepsTheLockUntilItsActionHasEnded(): Unit = runBlocking(Dispatchers.Default) {
		val lock = registry().obtain("kotlin:cancelled")
		val started = CompletableDeferred<Unit>()
		val cleaning = CompletableDeferred<Unit>()
		val cleaned = CompletableDeferred<Unit>()
		val job = launch {
			lock.withLock(Duration.ofSeconds(5)) {
				started.complete(Unit)
				try {
					awaitCancellation()
				}
				finally {
					withContext(NonCancellable) {
						cleaning.complete(Unit)
						cleaned.await()
					}
				}
			}
		}
		started.await()
		job.cancel()
		cleaning.await()
		// The action's clean-up still runs, under the lock.
		delay(200)
		assertThat(exists("kotlin:cancelled")).`as`("held while the cancelled action cleans up").isTrue()
		cleaned.complete(Unit)
		job.join()
		assertThat(exists("kotlin:cancelled")).`as`("released once the action ended").isFalse()
	}

	@Test
	fun aCoroutineCancelledWhileWaitingStopsWaitingAndTakesNothing(): Unit = runBlocking {
		// One thread: the holder's lock is a thread's, taken and released on the test's.
		val holder = registry().obtain("kotlin:waited")
		assertThat(holder.tryLock()).isTrue()
		try {
			val waiter = registry().obtain("kotlin:waited")
			var ran = false
			val job = launch { waiter.withLock(Duration.ofSeconds(30)) { ran = true } }
			delay(200)
			withTimeout(5_000) { job.cancel(); job.join() }
			assertThat(ran).isFalse()
			assertThat(waiter.isLocked).isTrue()
		}
		finally {
			holder.unlock()
		}
		assertThat(exists("kotlin:waited")).isFalse()
	}

	@Test
	fun aHoldThatArrivesAsTheCoroutineIsCancelledIsGivenBack(): Unit = runBlocking {
		val lock = registry().obtain("kotlin:arrived")
		val thread = Executors.newSingleThreadExecutor()
		val dispatcher = thread.asCoroutineDispatcher()
		try {
			var ran = false
			val job = launch(dispatcher) { lock.withLock(Duration.ofSeconds(5)) { ran = true } }
			// Keep the coroutine's only thread busy, so that the hold, once taken, waits to
			// be handed to it; cancelled meanwhile, the coroutine never gets it.
			val busy = CountDownLatch(1)
			thread.execute { busy.await() }
			await().atMost(Duration.ofSeconds(5)).until { exists("kotlin:arrived") }
			job.cancel()
			busy.countDown()
			job.join()
			assertThat(ran).isFalse()
			await().atMost(Duration.ofSeconds(5)).until { !exists("kotlin:arrived") }
		}
		finally {
			dispatcher.close()
		}
	}

	@Test
	fun aLeaseThatEndsBeforeTheActionIsALossTheCallerHearsOf(): Unit = runBlocking {
		val lock = registry().obtain("kotlin:leased")
		assertThrows<LockLostException> {
			lock.withLock(Duration.ZERO, Duration.ofMillis(100)) { delay(400) }
		}
		val failure = assertThrows<IllegalStateException> {
			lock.withLock(Duration.ZERO, Duration.ofMillis(100)) {
				delay(400)
				throw IllegalStateException("failed too")
			}
		}
		assertThat(failure.suppressed.single()).isInstanceOf(LockLostException::class.java)
	}

}
