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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.TestRequirements;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand virtual threads wait for one lock. Waiting must not pin a carrier thread:
 * the {@code virtual-threads} Maven profile runs this class on a JDK 21+ with two
 * carriers only, so a wait that pinned its carrier would stall the holders and the test
 * would not finish. The project builds for Java 17, so virtual threads are reached by
 * reflection, and the test is skipped on an older JDK (it fails there in a strict build,
 * see {@link TestRequirements}).
 *
 * @author setnx-lock authors
 */
class VirtualThreadTests {

	@BeforeAll
	static void needsAJdkWithVirtualThreads() {
		int feature = Runtime.version().feature();
		TestRequirements.require(feature >= 21, "VirtualThreadTests runs on JDK " + feature
				+ " and needs 21 or later: give one with -Dsetnx.lock.test.virtual-threads.jvm=/path/to/bin/java");
	}

	@Test
	void aThousandVirtualThreadsTakeTurnsOnOneLock() throws Exception {
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, SetnxLockSettings.defaults())) {
			CriticalSection section = new CriticalSection();
			Method ofVirtual = Thread.class.getMethod("ofVirtual");
			Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
			Object builder = ofVirtual.invoke(null);
			List<Thread> waiters = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				waiters.add((Thread) start.invoke(builder,
						(Runnable) () -> section.enterUnder(client.registry.obtain("virtual"))));
			}
			for (Thread waiter : waiters) {
				waiter.join(Duration.ofSeconds(120).toMillis());
				assertThat(waiter.isAlive()).isFalse();
			}
			assertThat(section.overlaps()).isZero();
			assertThat(section.entries()).isEqualTo(1000);
			assertThat(client.registry.localKeyCount()).isZero();
		}
	}

	@Test
	void virtualThreadsAndAsynchronousHoldsOfTwoRegistriesTakeTurns() throws Exception {
		try (RedisServer server = RedisServer.start();
				TestClient first = new TestClient(server, SetnxLockSettings.defaults());
				TestClient second = new TestClient(server, SetnxLockSettings.defaults())) {
			CriticalSection section = new CriticalSection();
			Method ofVirtual = Thread.class.getMethod("ofVirtual");
			Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
			Object builder = ofVirtual.invoke(null);
			List<Thread> workers = new ArrayList<>();
			for (int i = 0; i < 400; i++) {
				LeasedLock lock = ((i % 2 == 0) ? first : second).registry.obtain("virtual-async");
				// Half wait for an asynchronous hold, whose future parks the virtual
				// thread
				// and nothing else; half lock as threads.
				Runnable work = (i % 4 < 2) ? () -> {
					LockHandle handle = lock.acquireAsync(Duration.ofSeconds(120)).join().orElseThrow();
					try {
						section.enter();
					}
					finally {
						handle.release().join();
					}
				} : () -> section.enterUnder(lock);
				workers.add((Thread) start.invoke(builder, work));
			}
			for (Thread worker : workers) {
				worker.join(Duration.ofSeconds(120).toMillis());
				assertThat(worker.isAlive()).isFalse();
			}
			assertThat(section.overlaps()).isZero();
			assertThat(section.entries()).isEqualTo(400);
			assertThat(first.registry.localKeyCount()).isZero();
			assertThat(second.registry.localKeyCount()).isZero();
		}
	}

}
