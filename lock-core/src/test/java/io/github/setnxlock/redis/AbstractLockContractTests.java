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

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.LockRegistryContractTests;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * The behaviour every protocol must show, run against a real {@code redis-server}: the
 * registry-agnostic contract, with two registries on one Redis as the two applications,
 * and what only Redis can show (its keys, its scripts, its restarts, its slots).
 * Subclasses choose the protocol; the tests are the same.
 *
 * @author setnx-lock authors
 */
abstract class AbstractLockContractTests extends LockRegistryContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/** This class's server: subclasses run side by side, each on a server of its own. */
	private RedisServer server;

	private TestClient first;

	private TestClient second;

	/**
	 * Return the settings under test, protocol included.
	 * @return the settings
	 */
	protected abstract SetnxLockSettings settings();

	/**
	 * Return a client whose registry has the settings under test; each test has two. The
	 * tests check Redis through the server's own connection, not through this client, so
	 * a client may sign in as a user with fewer rights.
	 * @param server the server
	 * @return a new client, which the test closes
	 */
	protected TestClient newClient(RedisServer server) {
		return new TestClient(server, settings());
	}

	/**
	 * Set the server up for the clients: called before each test's clients are created,
	 * and again after a test restarts the server, which then has lost everything but its
	 * command-line configuration.
	 * @param server the server
	 */
	protected void prepareServer(RedisServer server) {
	}

	/**
	 * Check the server once a test's clients are closed, so that what they sent while
	 * closing counts too.
	 * @param server the server
	 */
	protected void clientsClosed(RedisServer server) {
	}

	@BeforeEach
	void connect(RedisServer server) {
		this.server = server;
		prepareServer(this.server);
		this.first = newClient(this.server);
		this.second = newClient(this.server);
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		stopThreads();
		this.first.close();
		this.second.close();
		clientsClosed(this.server);
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

}
