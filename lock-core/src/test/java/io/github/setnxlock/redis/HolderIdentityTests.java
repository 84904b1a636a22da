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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Who holds a lock is readable by an operator: the owner token names the application,
 * host, process id and thread before its secret part, {@code inspect} shows that part and
 * never the secret, and a registry told not to name its holders writes the bare token.
 *
 * @author setnx-lock authors
 */
class HolderIdentityTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static final String PID = Long.toString(ProcessHandle.current().pid());

	@ParameterizedTest
	@EnumSource(LockProtocol.class)
	void theOwnerTokenNamesTheHolderAndInspectShowsItWithoutTheSecret(LockProtocol protocol) throws Exception {
		SetnxLockSettings settings = SetnxLockSettings.builder().protocol(protocol).applicationName("orders").build();
		try (TestClient client = new TestClient(redis.server(), settings)) {
			LeasedLock lock = client.registry.obtain("identified");
			String holder = CompletableFuture.supplyAsync(() -> {
				assertThat(lock.tryLock()).isTrue();
				return client.registry.operations().inspect("identified").holder();
			}, (task) -> new Thread(task, "report worker#1").start()).get(10, TimeUnit.SECONDS);
			assertThat(holder).startsWith("orders@").endsWith("/" + PID + "/report-worker-1");
			LockState state = client.registry.operations().inspect("identified");
			assertThat(state.toString()).doesNotContain(secretOf(client, protocol));
			if (protocol == LockProtocol.TOKEN) {
				assertThat(client.redis.opsForValue().get("lock:identified")).startsWith(holder + ";");
			}
		}
	}

	@Test
	void aRegistryToldNotToNameItsHoldersWritesTheBareToken() {
		SetnxLockSettings settings = SetnxLockSettings.builder().holderIdentity(false).build();
		try (TestClient client = new TestClient(redis.server(), settings)) {
			LeasedLock lock = client.registry.obtain("anonymous");
			assertThat(lock.tryLock()).isTrue();
			try {
				assertThat(client.redis.opsForValue().get("lock:anonymous")).matches("[0-9a-f]{32}:[0-9a-f]+");
				assertThat(client.registry.operations().inspect("anonymous").holder()).isNull();
			}
			finally {
				lock.unlock();
			}
		}
	}

	@Test
	void aNamedTokenIsMarkedByAWaiterElsewhereSoItsReleaseIsAnnounced() throws Exception {
		try (TestClient holder = new TestClient(redis.server(), SetnxLockSettings.defaults());
				TestClient waiter = new TestClient(redis.server(), SetnxLockSettings.defaults())) {
			LeasedLock held = holder.registry.obtain("marked");
			assertThat(held.tryLock()).isTrue();
			CompletableFuture<Boolean> waiting = CompletableFuture
				.supplyAsync(() -> waiter.registry.tryExecuteLocked("marked", Duration.ofSeconds(10), () -> {
				}));
			await().atMost(Duration.ofSeconds(5))
				.until(() -> holder.redis.opsForValue().get("lock:marked").endsWith("!"));
			held.unlock();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	private static String secretOf(TestClient client, LockProtocol protocol) {
		String stored = (protocol == LockProtocol.TOKEN) ? client.redis.opsForValue().get("lock:identified")
				: client.redis.opsForValue().get(LockKey.of("lock:", "identified").ownerKey());
		assertThat(stored).as("the stored token").isNotNull();
		String token = stored.split(" ")[0];
		return token.substring(token.indexOf(';') + 1);
	}

}
