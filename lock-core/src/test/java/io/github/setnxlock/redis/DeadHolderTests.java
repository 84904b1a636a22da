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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TcpProxy;
import io.github.setnxlock.test.SharedResources;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder that dies, or loses its connection to Redis for good, is replaced within about
 * one lease: its renewals stop, its key expires, and a waiter elsewhere gets the lock
 * with a higher fencing token. The waiter gets the lock within one lease of the death or
 * the cut, and a margin for a loaded machine's scheduling: the key's last renewal set it
 * to live one lease at most.
 *
 * @author setnx-lock authors
 */
@ResourceLock(SharedResources.CORES)
class DeadHolderTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	/**
	 * The lease of the holder in a JVM of its own: longer, because a JVM that has just
	 * started on a busy machine can spend a second on its first renewal, and would then
	 * (rightly) report its lock lost before the test kills it.
	 */
	private static final Duration HOLDER_LEASE = Duration.ofSeconds(3);

	/**
	 * What a loaded machine may add to a wake-up that is due when a lease ends.
	 */
	private static final Duration MARGIN = Duration.ofMillis(500);

	@Test
	void aKilledHolderJvmIsReplacedWithinOneLease(@TempDir Path directory) throws Exception {
		try (RedisServer server = RedisServer.start();
				TestClient waiter = new TestClient(server, SetnxLockSettings.defaults())) {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			Path output = directory.resolve("holder.log");
			Process holder = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
					System.getProperty("java.class.path"), HoldUntilKilled.class.getName(),
					Integer.toString(server.port()), "dead-jvm", Long.toString(HOLDER_LEASE.toMillis()))
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			try {
				awaitHeld(holder, output);
				String log = Files.readString(output);
				long holderToken = Long.parseLong(log.substring(log.indexOf("HELD ") + 5).trim().split("\\s+")[0]);
				// Held across renewals while the holder lives.
				Thread.sleep(HOLDER_LEASE.multipliedBy(2).toMillis());
				LeasedLock lock = waiter.registry.obtain("dead-jvm");
				assertThat(lock.tryLock()).as(Files.readString(output)).isFalse();
				holder.destroyForcibly();
				assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
				long killed = System.nanoTime();
				assertThat(lock.tryLock(HOLDER_LEASE.multipliedBy(10))).isTrue();
				// The holder's last renewal set the key to live one lease at most.
				assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(HOLDER_LEASE.plus(MARGIN));
				assertThat(lock.fencingToken()).isGreaterThan(holderToken);
				lock.unlock();
			}
			finally {
				holder.destroyForcibly();
			}
		}
	}

	/**
	 * Wait for the holder to say it holds the lock; if it does not, fail with what it
	 * printed and where its threads are.
	 */
	private static void awaitHeld(Process holder, Path output) throws Exception {
		try {
			await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(output).contains("HELD "));
		}
		catch (ConditionTimeoutException ex) {
			String threads = "";
			if (holder.isAlive()) {
				Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
						Long.toString(holder.pid()), "Thread.print")
					.redirectErrorStream(true)
					.start();
				threads = new String(jcmd.getInputStream().readAllBytes());
			}
			throw new AssertionError("The holder JVM did not take the lock within 60 s. It printed:\n"
					+ Files.readString(output) + "\nIts threads:\n" + threads, ex);
		}
	}

	@Test
	void aHolderCutOffFromRedisLosesItsLockAndIsReplacedWithinOneLease() throws Exception {
		List<LockLostEvent> lost = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				lost.add(event);
			}

		};
		SetnxLockSettings settings = SetnxLockSettings.builder().leaseTime(LEASE).build();
		try (RedisServer server = RedisServer.start();
				TcpProxy proxy = TcpProxy.start(server);
				TestClient waiter = new TestClient(server, settings)) {
			LettuceConnectionFactory cutOffFactory = RedisConnections.create(proxy, Duration.ofMillis(200));
			SetnxLockRegistry cutOff = new SetnxLockRegistry(RedisConnections.template(cutOffFactory), settings,
					List.of(listener));
			try {
				LeasedLock held = cutOff.obtain("cut-off");
				held.lock();
				long token = held.fencingToken();
				proxy.cut();
				long cutAt = System.nanoTime();
				LeasedLock lock = waiter.registry.obtain("cut-off");
				assertThat(lock.tryLock(LEASE.multipliedBy(10))).isTrue();
				assertThat(Duration.ofNanos(System.nanoTime() - cutAt)).isLessThan(LEASE.plus(MARGIN));
				assertThat(lock.fencingToken()).isGreaterThan(token);
				// The cut-off holder knew before the waiter got the lock: its deadline is
				// earlier than the key's expiry.
				await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !held.isHeldByCurrentThread());
				await().atMost(Duration.ofSeconds(10)).until(() -> !lost.isEmpty());
				assertThat(lost).singleElement()
					.satisfies((event) -> assertThat(event.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_FAILED));
				lock.unlock();
			}
			finally {
				cutOff.close();
				RedisConnections.destroy(cutOffFactory);
			}
		}
	}

}
