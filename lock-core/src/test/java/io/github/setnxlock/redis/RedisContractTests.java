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
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.LockRegistryContractTests;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * The behaviour every protocol must show, run against a real server: the
 * registry-agnostic contract, with two registries on one Redis as the two applications,
 * and what only Redis can show (its keys, its scripts, its restarts, its slots). It runs
 * once for each {@link Variant} of protocol, client and server, each on a server of its
 * own; the tests are the same.
 *
 * @author setnx-lock authors
 */
@ParameterizedClass(name = "{0}")
@MethodSource("variants")
class RedisContractTests extends LockRegistryContractTests {

	private static final Map<String, RedisServer> servers = new ConcurrentHashMap<>();

	@Parameter
	Variant variant;

	private RedisServer server;

	private TestClient first;

	private TestClient second;

	static List<Variant> variants() {
		SetnxLockSettings token = SetnxLockSettings.builder().protocol(LockProtocol.TOKEN).build();
		SetnxLockSettings timestamp = SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.build();
		return List.of(new Variant("token", token, RedisServer::start, Client.LETTUCE),
				new Variant("token on Jedis, whose scripts run on the registry's threads", token, RedisServer::start,
						Client.JEDIS),
				new Variant("token as a least-privilege ACL user", token, RedisServer::start, Client.ACL_USER),
				// Released with Valkey's own compare-and-delete, DELIFEQ.
				new Variant("token on Valkey", token, RedisServerExtension::startValkey, Client.LETTUCE),
				// Released with DELEX ... IFEQ.
				new Variant("token on Redis 8.4 or later", token, RedisServerExtension::startRedis8, Client.LETTUCE),
				new Variant("timestamp in milliseconds", timestamp, RedisServer::start, Client.LETTUCE),
				new Variant("timestamp on Jedis", timestamp, RedisServer::start, Client.JEDIS),
				// Still released by a script: it decides on the time and the fencing
				// counter.
				new Variant("timestamp on Valkey", timestamp, RedisServerExtension::startValkey, Client.LETTUCE),
				new Variant("timestamp with keyspace notifications, as a least-privilege ACL user",
						SetnxLockSettings.builder()
							.protocol(LockProtocol.TIMESTAMP)
							.timestampUnit(TimestampUnit.MILLISECONDS)
							.keyspaceNotifications(true)
							.build(),
						RedisServer::start, Client.ACL_USER),
				// As the documented pattern writes them.
				new Variant("timestamp in seconds without a key prefix",
						SetnxLockSettings.builder()
							.protocol(LockProtocol.TIMESTAMP)
							.keyPrefix("")
							.timestampUnit(TimestampUnit.SECONDS)
							.build(),
						RedisServer::start, Client.LETTUCE));
	}

	@BeforeParameterizedClassInvocation
	static void startServer(Variant variant) {
		servers.put(variant.name(), variant.server().get());
	}

	@AfterParameterizedClassInvocation
	static void stopServer(Variant variant) {
		RedisServer server = servers.remove(variant.name());
		if (server != null) {
			server.close();
		}
	}

	private SetnxLockSettings settings() {
		return this.variant.settings();
	}

	/**
	 * Set the server up for the clients: before each test's clients are created, and
	 * again after a test restarts the server, which then has lost everything but its
	 * command-line configuration.
	 */
	private void prepareServer(RedisServer server) {
		if (settings().keyspaceNotifications()) {
			server.execute("CONFIG", "SET", "notify-keyspace-events", "Kg");
		}
		if (this.variant.client() == Client.ACL_USER) {
			LeastPrivilegeUser.create(server, LeastPrivilegeUser.rules(settings()));
		}
	}

	/**
	 * Return a client whose registry has the settings under test; each test has two. The
	 * tests check Redis through the server's own connection, not through this client, so
	 * a client may sign in as a user with fewer rights.
	 */
	private TestClient newClient(RedisServer server) {
		return switch (this.variant.client()) {
			case LETTUCE -> new TestClient(server, settings());
			case JEDIS -> JedisClients.client(server, settings());
			case ACL_USER -> LeastPrivilegeUser.client(server, settings());
		};
	}

	@BeforeEach
	void connect() {
		this.server = servers.get(this.variant.name());
		this.server.execute("FLUSHALL");
		prepareServer(this.server);
		this.first = newClient(this.server);
		this.second = newClient(this.server);
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		stopThreads();
		this.first.close();
		this.second.close();
		if (this.variant.client() == Client.ACL_USER) {
			// Once the clients are closed, so that what they sent while closing counts
			// too.
			assertThat(LeastPrivilegeUser.refusals(this.server)).as("refused by Redis").isEmpty();
		}
	}

	@Override
	protected LockRegistry first() {
		return this.first.registry;
	}

	@Override
	protected LockRegistry second() {
		return this.second.registry;
	}

	@Override
	protected boolean isStored(String key) {
		return exists(settings().keyPrefix() + key);
	}

	@Override
	protected int localKeyCount(LockRegistry registry) {
		return ((SetnxLockRegistry) registry).localKeyCount();
	}

	@Override
	protected Duration shortLease() {
		// Whole seconds: the stored expiry is now + 1 + 1, so the hold lasts 1 to 2
		// seconds.
		return (settings().timestampUnit() == TimestampUnit.SECONDS && settings().protocol() == LockProtocol.TIMESTAMP)
				? Duration.ofSeconds(1) : super.shortLease();
	}

	@Override
	protected void awaitWaiter(LockRegistry registry, String key) {
		Handshakes.awaitWaiterOnRedis((SetnxLockRegistry) registry, settings().keyPrefix() + key);
	}

	@Override
	protected void awaitReleaseMessages(LockRegistry registry) {
		await("release messages").atMost(Duration.ofSeconds(10))
			.until(() -> ((SetnxLockRegistry) registry).engine().stats().subscribeAndCheck());
	}

	@Test
	void aClosedRegistryRefusesAcquisitionsBeforeWritingAnything() throws Exception {
		TestClient client = newClient(this.server);
		try {
			LeasedLock lock = client.registry.obtain("after-close");
			client.registry.close();
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::tryLock)
				.withMessageContaining("'after-close'")
				.withMessageContaining("closed");
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(10)));
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(lock::lock);
			assertThat(exists(settings().keyPrefix() + "after-close")).isFalse();
			assertThat(client.registry.localKeyCount()).isZero();
		}
		finally {
			client.close();
		}
	}

	@Test
	void scriptsThatRedisForgotAreSentAgain() throws InterruptedException {
		LeasedLock lock = this.first.registry.obtain("forgotten-scripts");
		assertThat(lock.tryLock()).isTrue();
		this.server.execute("SCRIPT", "FLUSH");
		lock.unlock();
		assertThat(exists(settings().keyPrefix() + "forgotten-scripts")).isFalse();
		this.server.execute("SCRIPT", "FLUSH");
		assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
		assertThat(exists(settings().keyPrefix() + "forgotten-scripts")).isTrue();
		lock.unlock();
	}

	@Test
	void fencingTokensIncreaseAcrossARedisRestart() throws Exception {
		LeasedLock before = this.first.registry.obtain("fenced");
		before.lock();
		long beforeRestart = before.fencingToken();
		before.unlock();
		this.server.restart();
		prepareServer(this.server);
		LeasedLock lock = this.first.registry.obtain("fenced");
		await().pollInSameThread()
			.atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> lock.tryLock(Duration.ofSeconds(1)));
		assertThat(lock.fencingToken()).isGreaterThan(beforeRestart);
		lock.unlock();
	}

	@Test
	void fencingCounterKeySharesTheLockKeysSlotAndExpires() {
		LeasedLock lock = this.first.registry.obtain("slot");
		lock.lock();
		String fenceKey = "{" + settings().keyPrefix() + "slot}:fence";
		// The token protocol writes the counter at the hold's first fencingToken() only;
		// the timestamp protocol draws with the acquisition.
		assertThat(exists(fenceKey)).isEqualTo(settings().protocol() == LockProtocol.TIMESTAMP);
		assertThat(lock.fencingToken()).isPositive();
		assertThat(exists(fenceKey)).isTrue();
		assertThat((Long) this.server.execute("PTTL", fenceKey)).isPositive();
		lock.unlock();
		try (RedisServer cluster = RedisServer.start("--cluster-enabled", "yes")) {
			assertThat(cluster.execute("CLUSTER", "KEYSLOT", fenceKey))
				.isEqualTo(cluster.execute("CLUSTER", "KEYSLOT", settings().keyPrefix() + "slot"));
		}
	}

	/**
	 * Whether a key exists, read through the server's own connection.
	 */
	private boolean exists(String key) {
		return Long.valueOf(1).equals(this.server.execute("EXISTS", key));
	}

	/** How the registries under test reach the server. */
	enum Client {

		LETTUCE, JEDIS,

		/**
		 * Signed in as a Redis ACL user with only the rights docs/topologies.md lists.
		 */
		ACL_USER

	}

	/**
	 * One way to run the contract.
	 *
	 * @param name what it runs on, for the test names
	 * @param settings the registries' settings, protocol included
	 * @param server starts the server
	 * @param client how the registries reach it
	 */
	record Variant(String name, SetnxLockSettings settings, Supplier<RedisServer> server, Client client) {

		@Override
		public String toString() {
			return this.name;
		}

	}

}
