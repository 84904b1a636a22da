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
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.redis.engine.Hold;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A local hand-off passes the key, with the same owner token in Redis, to the next hold
 * of the registry; the ownership check of a fencing draw then passes for the old hold
 * too. A draw for a hold whose release has begun must fail, or a thread still drawing for
 * a {@link LockHandle} that another thread released could get a token above the next
 * holder's. The race (a draw that passed the handle's check just before another thread's
 * release) is shown here by its outcome, a draw for the released hold, on the engine that
 * both paths reach.
 *
 * @author setnx-lock authors
 */
class FencingAfterReleaseTests {

	@Test
	void aDrawForAHoldHandedOverLocallyFailsAndTheNextHolderKeepsTheHighestToken() throws Exception {
		try (RedisServer server = RedisServer.start();
				TestClient client = new TestClient(server, SetnxLockSettings.builder().build())) {
			LockEngine engine = client.registry.engine();
			LeasedLock lock = client.registry.obtain("fenced");
			LockHandle first = lock.acquireAsync(Duration.ZERO).get(5, TimeUnit.SECONDS).orElseThrow();
			Hold firstHold = engine.holds().get(0);
			CompletableFuture<LockHandle> next = lock.acquireAsync(Duration.ofSeconds(5))
				.thenApply((handle) -> handle.orElseThrow());
			await().atMost(Duration.ofSeconds(5))
				.until(() -> engine.stats().keyState("lock:fenced").slotWaiters() == 1);
			first.release().get(5, TimeUnit.SECONDS);
			LockHandle second = next.get(5, TimeUnit.SECONDS);
			assertThat(engine.stats().localHandoffs()).isEqualTo(1);
			long secondToken = second.fencingToken();
			assertThatIllegalStateException().isThrownBy(() -> engine.fencingToken(firstHold))
				.withMessageContaining("released");
			assertThatThrownBy(() -> engine.fencingTokenAsync(firstHold).join())
				.hasCauseInstanceOf(IllegalStateException.class);
			assertThat(second.fencingToken()).isEqualTo(secondToken);
			second.release().get(5, TimeUnit.SECONDS);
			assertThat(engine.holds()).isEmpty();
		}
	}

}
