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

package io.github.setnxlock.redis.engine;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.engine.PendingAcquisition.AbandonedAcquisitions;
import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot owner handed the slot after an announced release waits a moment for that
 * release's message before it asks Redis (so the JVM that released does not win every
 * hand-off), but only within its own wait: one whose wait has ended by then neither waits
 * for the message nor asks Redis. Against a real Redis, through the acquisition's steps
 * directly (every acquisition, a thread's too, runs them), with the slot handed over as a
 * release would.
 *
 * @author setnx-lock authors
 */
class HandoffWaitTests {

	private static final String CHANNEL = "setnx-lock:released";

	private RedisServer server;

	private LettuceConnectionFactory factory;

	private RedisGateway gateway;

	private ReleaseMessages messages;

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

	private final KeyStates states = new KeyStates();

	private AcquireLoop loop;

	@BeforeEach
	void connect() {
		this.server = RedisServer.start();
		this.factory = RedisConnections.create(this.server, Duration.ofSeconds(5));
		this.gateway = new RedisGateway(RedisConnections.template(this.factory), TokenLockCommands.SCRIPTS);
		TokenLockCommands commands = new TokenLockCommands(this.gateway, Duration.ofHours(1), CHANNEL);
		this.messages = this.gateway.subscribe(CHANNEL, null, this.states);
		this.loop = new AcquireLoop(commands, this.messages, new AbandonedAcquisitions(commands, this.timer), false,
				this.gateway.reachability());
		// The hand-off wait is for a message: only while the subscription listens.
		await().atMost(Duration.ofSeconds(10)).until(this.messages::isListening);
	}

	@AfterEach
	void close() throws InterruptedException {
		this.timer.shutdownNow();
		this.messages.close();
		this.gateway.close();
		RedisConnections.destroy(this.factory);
		this.server.close();
	}

	@Test
	void anAcquisitionWhoseWaitHasEndedDoesNotWaitForTheHandoffMessage() throws Exception {
		KeyState state = this.states.retain("lock:late-async");
		SlotTurn turn = handOverAfterAnnouncedRelease(state);
		long startNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(2);
		AsyncAcquisition acquisition = new AsyncAcquisition(this.loop, this.timer, LockKey.of("lock:", "late-async"),
				state, "token", Duration.ofSeconds(30), startNanos, TimeUnit.SECONDS.toNanos(1), turn);
		assertThat(acquisition.start()).isCompletedWithValue(null);
		assertThat(this.server.execute("EXISTS", "lock:late-async")).isEqualTo(0L);
	}

	/**
	 * Put an owner in the key's slot and a second in line, and release the first as an
	 * announced release in Redis does: the second owns the slot, to wait for that
	 * release's message, which nobody sends.
	 * @return the second's turn
	 */
	private SlotTurn handOverAfterAnnouncedRelease(KeyState state) throws Exception {
		Object first = new Object();
		Object second = new Object();
		assertThat(state.slot.claimAsync(first, System.nanoTime(), false, (task, at) -> null))
			.isCompletedWithValue(SlotTurn.NONE);
		CompletableFuture<SlotTurn> inLine = state.slot.claimAsync(second, Waits.NO_DEADLINE, false,
				(task, at) -> null);
		assertThat(state.slotWaiters()).isEqualTo(1);
		state.released(first, state.releases.generation());
		SlotTurn turn = inLine.get(10, TimeUnit.SECONDS);
		assertThat(turn.announced()).isTrue();
		return turn;
	}

}
