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
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.test.RedisNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Redlock registry as it is made and operated: the nodes and settings it refuses, and
 * the operator API (health, inspect, force-release) over its nodes.
 *
 * @author setnx-lock authors
 */
@TestInstance(Lifecycle.PER_CLASS)
class RedlockRegistryTests {

	/**
	 * Restarts are the subject of {@link RedlockRestartTests}: here nodes started (or
	 * restarted) for the class count at once.
	 */
	private static final SetnxLockSettings SETTINGS = SetnxLockSettings.builder()
		.nodeTimeout(Duration.ofMillis(500))
		.restartDelay(Duration.ZERO)
		.build();

	private RedisNodes nodes;

	@BeforeAll
	void startNodes() {
		this.nodes = RedisNodes.start(3);
	}

	@AfterAll
	void stopNodes() {
		this.nodes.close();
	}

	@Test
	void fewerThanThreeNodesTheTimestampProtocolAndTheReplicationGuardAreRefusedNamingWhatIsWrong() {
		StringRedisTemplate template = new StringRedisTemplate();
		List<RedlockNode> two = List.of(new RedlockNode("a:1", template), new RedlockNode("b:1", template));
		List<RedlockNode> three = List.of(new RedlockNode("a:1", template), new RedlockNode("b:1", template),
				new RedlockNode("c:1", template));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SetnxLockRegistry(two, SETTINGS, List.of()))
			.withMessageContaining("at least 3")
			.withMessageContaining("got 2");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SetnxLockRegistry(three,
					SETTINGS.toBuilder().protocol(LockProtocol.TIMESTAMP).build(), List.of()))
			.withMessageContaining("TIMESTAMP");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SetnxLockRegistry(three,
					SETTINGS.toBuilder().replicationGuard(1, Duration.ofSeconds(1)).build(), List.of()))
			.withMessageContaining("replicationGuard");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(
					() -> new SetnxLockRegistry(List.of(three.get(0), three.get(0), three.get(1)), SETTINGS, List.of()))
			.withMessageContaining("distinct");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new SetnxLockRegistry(three,
					SETTINGS.toBuilder().leaseTime(Duration.ofSeconds(1)).build(), List.of()))
			.withMessageContaining("nodeTimeout")
			.withMessageContaining("leaseTime");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new RedlockNode("user:secret@host:6379", template))
			.withMessageContaining("credentials")
			.withMessageNotContaining("secret");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> SetnxLockSettings.builder().nodeTimeout(Duration.ZERO))
			.withMessageContaining("nodeTimeout");
		assertThat(SetnxLockSettings.defaults().nodeTimeout()).isEqualTo(Duration.ofMillis(100));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> SetnxLockSettings.builder().restartDelay(Duration.ofSeconds(-1)))
			.withMessageContaining("restartDelay");
		// The lease by default, following it; zero turns the rule off.
		assertThat(SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(7)).build().restartDelay())
			.isEqualTo(Duration.ofSeconds(7));
		assertThat(SetnxLockSettings.builder().restartDelay(Duration.ZERO).build().restartDelay()).isZero();
	}

	@Test
	void inspectShowsAHoldOnAMajorityAndForceReleaseDeletesItOnEveryNode() throws Exception {
		try (RedlockClient client = new RedlockClient(this.nodes, SETTINGS)) {
			LeasedLock lock = client.registry.obtain("inspected");
			assertThat(lock.tryLock()).isTrue();
			LockState held = client.registry.operations().inspect("inspected");
			assertThat(held.held()).isTrue();
			assertThat(held.heldHere()).isTrue();
			assertThat(held.protocol()).isEqualTo("redlock");
			assertThat(held.ttlMillis()).isPositive();
			assertThat(held.timestamp()).isNull();
			assertThat(client.registry.operations().forceRelease("inspected")).isTrue();
			assertThat(this.nodes.holdersOf("lock:inspected")).isZero();
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertThat(client.registry.operations().inspect("inspected").held()).isFalse();
		}
	}

	@Test
	void healthIsUpWhileAMajorityAnswersAndNamesEachNode() {
		try (RedlockClient client = new RedlockClient(this.nodes, SETTINGS)) {
			Map<String, Object> details = client.registry.operations().checkHealth();
			assertThat(details).containsEntry("protocol", "redlock");
			assertThat(nodesOf(details)).containsOnlyKeys(this.nodes.name(0), this.nodes.name(1), this.nodes.name(2));
			this.nodes.stop(1);
			try {
				assertThat(nodesOf(client.registry.operations().checkHealth())).containsEntry(this.nodes.name(0), "up")
					.hasEntrySatisfying(this.nodes.name(1), (state) -> assertThat(state).asString().startsWith("down"));
				this.nodes.stop(2);
				assertThatExceptionOfType(DataAccessException.class)
					.isThrownBy(() -> client.registry.operations().checkHealth())
					.withMessageContaining(this.nodes.name(1))
					.withMessageContaining(this.nodes.name(2));
			}
			finally {
				this.nodes.restart(1);
				this.nodes.restart(2);
			}
			await().atMost(Duration.ofSeconds(20))
				.ignoreExceptions()
				.until(() -> client.registry.operations().checkHealth().get("nodes").toString().contains("down"),
						(down) -> !down);
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, String> nodesOf(Map<String, Object> details) {
		return (Map<String, String>) details.get("nodes");
	}

}
