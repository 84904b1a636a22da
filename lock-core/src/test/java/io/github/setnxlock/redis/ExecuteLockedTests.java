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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.CannotAcquireLockException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link LockRegistry#executeLocked} and {@link LockRegistry#tryExecuteLocked}: the work
 * runs while the lock is held, alone across registries, and the lock is released however
 * the work ends.
 *
 * @author setnx-lock authors
 */
class ExecuteLockedTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private TestClient client;

	private TestClient other;

	@BeforeEach
	void connect() {
		RedisServer server = redis.server();
		this.client = new TestClient(server, SetnxLockSettings.defaults());
		this.other = new TestClient(server, SetnxLockSettings.defaults());
	}

	@AfterEach
	void disconnect() {
		this.client.close();
		this.other.close();
	}

	@Test
	void theWorkRunsHoldingTheLockAndItsResultIsReturned() {
		LockRegistry locks = this.client.registry;
		String result = locks.executeLocked("orders:1", Duration.ofSeconds(1), () -> {
			assertThat(locks.obtain("orders:1").isHeldByCurrentThread()).isTrue();
			return "held " + this.client.redis.hasKey("lock:orders:1");
		});
		assertThat(result).isEqualTo("held true");
		assertThat(this.client.redis.hasKey("lock:orders:1")).isFalse();
		AtomicBoolean ran = new AtomicBoolean();
		locks.executeLocked("orders:1", Duration.ZERO, () -> ran.set(true));
		assertThat(ran).isTrue();
		assertThat(locks.tryExecuteLocked("orders:1", Duration.ZERO, () -> ran.set(false))).isTrue();
		assertThat(ran).isFalse();
		assertThat(this.client.redis.hasKey("lock:orders:1")).isFalse();
	}

	@Test
	void whatTheWorkThrowsComesThroughAndTheLockIsReleased() {
		LockRegistry locks = this.client.registry;
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> locks.executeLocked("orders:2", Duration.ZERO, () -> {
				throw new IOException("disk full");
			}))
			.withMessage("disk full")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		assertThat(this.client.redis.hasKey("lock:orders:2")).isFalse();
		assertThat(locks.obtain("orders:2").isHeldByCurrentThread()).isFalse();
	}

	@Test
	void aLockHeldElsewhereIsNotAcquiredAndTheWorkDoesNotRun() throws Exception {
		LeasedLock held = this.other.registry.obtain("orders:3");
		assertThat(held.tryLock()).isTrue();
		try {
			AtomicBoolean ran = new AtomicBoolean();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.client.registry.executeLocked("orders:3", Duration.ofMillis(100), () -> {
					ran.set(true);
					return 1;
				}))
				.isInstanceOf(CannotAcquireLockException.class)
				.satisfies((ex) -> assertThat(ex.getHolder()).endsWith("/" + ProcessHandle.current().pid() + "/"
						+ Thread.currentThread().getName().replaceAll("[^A-Za-z0-9._-]", "-")))
				.satisfies((ex) -> assertThat(ex)
					.hasMessage("Lock 'orders:3' was held by " + ex.getHolder() + " for the whole wait of PT0.1S"));
			assertThat(this.client.registry.tryExecuteLocked("orders:3", Duration.ofMillis(100), () -> ran.set(true)))
				.isFalse();
			assertThat(ran).isFalse();
		}
		finally {
			held.unlock();
		}
	}

	@Test
	void anInterruptEndsTheWaitAndIsKept() throws Exception {
		LeasedLock held = this.other.registry.obtain("orders:4");
		assertThat(held.tryLock()).isTrue();
		try {
			Thread.currentThread().interrupt();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.client.registry.executeLocked("orders:4", Duration.ofSeconds(30), () -> 1))
				.withCauseInstanceOf(InterruptedException.class);
			assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
		}
		finally {
			held.unlock();
		}
	}

	@Test
	void aLeaseThatEndsBeforeTheWorkIsALossTheCallerHearsOf() {
		LockRegistry locks = this.client.registry;
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> locks.executeLocked("orders:5", Duration.ZERO, Duration.ofMillis(100), () -> {
				Thread.sleep(400);
				return "done";
			}));
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> locks.tryExecuteLocked("orders:5", Duration.ZERO, Duration.ofMillis(100), () -> {
				Thread.sleep(400);
				throw new IllegalStateException("failed too");
			}))
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class));
		assertThat(this.client.redis.hasKey("lock:orders:5")).isFalse();
	}

	@Test
	void aLeaseMustBePositive() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.registry.executeLocked("orders:6", Duration.ZERO, Duration.ZERO, () -> 1))
			.withMessage("The lease must be positive, but was PT0S");
	}

	@Test
	void workOfManyThreadsInTwoRegistriesRunsOneAtATime() throws Exception {
		int[] counter = new int[1];
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				LockRegistry locks = (i % 2 == 0) ? this.client.registry : this.other.registry;
				done.add(threads.submit(() -> {
					for (int j = 0; j < 50; j++) {
						locks.executeLocked("counter", Duration.ofSeconds(30), () -> {
							int seen = counter[0];
							Thread.yield();
							counter[0] = seen + 1;
						});
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(counter[0]).isEqualTo(400);
	}

}
