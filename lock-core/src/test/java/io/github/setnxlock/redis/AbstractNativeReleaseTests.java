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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import static org.awaitility.Awaitility.await;

/**
 * The token protocol's release with the server's own compare-and-delete (Valkey's
 * {@code DELIFEQ}, Redis's {@code DELEX ... IFEQ}), and its way back to the script where
 * the command is refused. What commands the server ran is read from its
 * {@code INFO commandstats}; whether the release script ever ran, from
 * {@code SCRIPT EXISTS} (a script sent only by SHA1 is never loaded).
 *
 * @author setnx-lock authors
 */
abstract class AbstractNativeReleaseTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/** This class's server: subclasses run side by side, each on a server of its own. */
	private RedisServer server;

	private static final SetnxLockSettings TOKEN = SetnxLockSettings.builder().protocol(LockProtocol.TOKEN).build();

	/**
	 * Return the server's compare-and-delete, as its {@code INFO commandstats} and ACL
	 * rules name it.
	 * @return the command in lower case
	 */
	protected abstract String command();

	@BeforeEach
	void resetStatisticsAndScripts(RedisServer server) {
		this.server = server;
		this.server.execute("CONFIG", "RESETSTAT");
		this.server.execute("SCRIPT", "FLUSH");
	}

	@Test
	void everyReleaseIsOneCommandAndTheReleaseScriptNeverRuns() throws InterruptedException {
		try (TestClient client = withoutWarmUpScripts(new TestClient(this.server, TOKEN))) {
			for (int i = 0; i < 30; i++) {
				LeasedLock lock = client.registry.obtain("native-" + (i % 3));
				assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
				lock.unlock();
				assertThat(this.server.execute("EXISTS", "lock:native-" + (i % 3))).isEqualTo(0L);
			}
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(30);
		assertThat(releaseScriptLoaded(this.server)).isFalse();
	}

	@Test
	void waitersInAnotherRegistryAreWokenByTheRelease() throws Exception {
		try (TestClient holder = withoutWarmUpScripts(new TestClient(this.server, TOKEN));
				TestClient waiter = withoutWarmUpScripts(new TestClient(this.server, TOKEN))) {
			LeasedLock held = holder.registry.obtain("wake");
			assertThat(held.tryLock(Duration.ofSeconds(5), Duration.ofMinutes(5))).isTrue();
			CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
				LeasedLock lock = waiter.registry.obtain("wake");
				try {
					boolean acquired = lock.tryLock(Duration.ofMinutes(1));
					if (acquired) {
						lock.unlock();
					}
					return acquired;
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
			});
			// The waiter listens on the release channel, has stopped re-checking, and now
			// waits for the holder's five-minute lease or for the release message.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Long.valueOf(1)
					.equals(((List<?>) this.server.execute("PUBSUB", "NUMSUB", TOKEN.releaseChannel())).get(1)));
			AtomicLong attempts = new AtomicLong(-1);
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(300))
				.until(() -> attempts.getAndSet(this.server.commandStat("evalsha", "calls")) == attempts.get());
			long published = this.server.commandStat("publish", "calls");
			held.unlock();
			assertThat(waited.get(30, TimeUnit.SECONDS)).isTrue();
			// The holder's token was marked by the waiter: its compare-and-delete deleted
			// nothing, and the script deleted and announced. The waiter's own release
			// found no mark.
			assertThat(this.server.commandStat("publish", "calls")).isEqualTo(published + 1);
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(2);
		assertThat(releaseScriptLoaded(this.server)).isTrue();
	}

	@Test
	void aFirstReleaseThatCannotReachTheServerLeavesTheQuestionToTheNext() throws InterruptedException {
		try (TestClient client = withoutWarmUpScripts(new TestClient(this.server, TOKEN))) {
			LeasedLock lock = client.registry.obtain("unreachable");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			this.server.stop();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::unlock);
			this.server.restart();
			cycles(client, "unreachable", 3);
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(3);
		assertThat(releaseScriptLoaded(this.server)).isFalse();
	}

	@Test
	void aKeyThatNowHoldsAnotherTypeIsReportedLostAndLeftAlone() throws InterruptedException {
		try (TestClient client = withoutWarmUpScripts(new TestClient(this.server, TOKEN))) {
			LeasedLock lock = client.registry.obtain("retyped");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			this.server.execute("DEL", "lock:retyped");
			this.server.execute("HSET", "lock:retyped", "field", "value");
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			assertThat(this.server.execute("HGET", "lock:retyped", "field")).isEqualTo("value");
		}
		// The command met the hash (WRONGTYPE), and the script did not take over.
		assertThat(this.server.commandStat(command(), "failed_calls")).isEqualTo(1);
		assertThat(releaseScriptLoaded(this.server)).isFalse();
	}

	@Test
	void aUserWithoutTheRightToTheCommandReleasesWithTheScriptAndIsNeverRefused() throws InterruptedException {
		LeastPrivilegeUser.create(this.server, LeastPrivilegeUser.rules(TOKEN));
		try (TestClient client = withoutWarmUpScripts(LeastPrivilegeUser.client(this.server, TOKEN))) {
			cycles(client, "no-command", 5);
		}
		assertThat(this.server.commandStat(command(), "rejected_calls")).isZero();
		assertThat(this.server.commandStat(command(), "calls")).isZero();
		assertThat(releaseScriptLoaded(this.server)).isTrue();
		assertThat(LeastPrivilegeUser.refusals(this.server)).isEmpty();
	}

	@Test
	void aUserWithTheRightToTheCommandUsesIt() throws InterruptedException {
		LeastPrivilegeUser.create(this.server, withCommand());
		try (TestClient client = withoutWarmUpScripts(LeastPrivilegeUser.client(this.server, TOKEN))) {
			cycles(client, "with-command", 5);
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(5);
		assertThat(releaseScriptLoaded(this.server)).isFalse();
		assertThat(LeastPrivilegeUser.refusals(this.server)).isEmpty();
	}

	@Test
	void aUserThatMayNotAnnounceReleasesUsesTheCommandAndFailsOnlyAReleaseThatIsWaitedFor() throws Exception {
		List<String> rules = withCommand();
		assertThat(rules.remove("+publish")).isTrue();
		LeastPrivilegeUser.create(this.server, rules);
		try (TestClient client = withoutWarmUpScripts(LeastPrivilegeUser.client(this.server, TOKEN));
				TestClient waiter = withoutWarmUpScripts(new TestClient(this.server, TOKEN))) {
			cycles(client, "unannounced", 3);
			LeasedLock lock = client.registry.obtain("unannounced");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			assertThat(CompletableFuture
				.supplyAsync(() -> tryLock(waiter.registry.obtain("unannounced"), Duration.ofSeconds(1)))
				.get(10, TimeUnit.SECONDS)).isFalse();
			assertThatExceptionOfType(LockAccessException.class).isThrownBy(lock::unlock)
				.withMessageContaining("no permissions to run the 'publish' command");
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(4);
		assertThat(this.server.execute("EXISTS", "lock:unannounced")).isEqualTo(1L);
	}

	private static boolean tryLock(LeasedLock lock, Duration wait) {
		try {
			return lock.tryLock(wait);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Test
	void aRightTakenAwayWhileInUseSendsReleasesBackToTheScript() throws InterruptedException {
		LeastPrivilegeUser.create(this.server, withCommand());
		try (TestClient client = withoutWarmUpScripts(LeastPrivilegeUser.client(this.server, TOKEN))) {
			cycles(client, "taken-away", 3);
			this.server.execute("ACL", "SETUSER", LeastPrivilegeUser.NAME, "-" + command());
			cycles(client, "taken-away", 3);
		}
		assertThat(this.server.commandStat(command(), "calls")).isEqualTo(3);
		assertThat(this.server.commandStat(command(), "rejected_calls")).isEqualTo(1);
		assertThat(releaseScriptLoaded(this.server)).isTrue();
	}

	private List<String> withCommand() {
		List<String> rules = new ArrayList<>(LeastPrivilegeUser.rules(TOKEN));
		rules.add("+" + command());
		return rules;
	}

	/**
	 * Acquire and release a lock, checking each time that the release deleted its key.
	 */
	private void cycles(TestClient client, String name, int count) throws InterruptedException {
		LeasedLock lock = client.registry.obtain(name);
		for (int i = 0; i < count; i++) {
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			lock.unlock();
			assertThat(this.server.execute("EXISTS", "lock:" + name)).isEqualTo(0L);
		}
	}

	/**
	 * Wait for the scripts a new registry loads in the background, and forget them: what
	 * is loaded afterwards, the release script above all, was run by a release.
	 */
	private TestClient withoutWarmUpScripts(TestClient client) {
		client.registry.warmedUp().join();
		this.server.execute("SCRIPT", "FLUSH");
		return client;
	}

	static boolean releaseScriptLoaded(RedisServer server) {
		return Long.valueOf(1)
			.equals(((List<?>) server.execute("SCRIPT", "EXISTS", TokenLockCommands.RELEASE.sha1())).get(0));
	}

}
