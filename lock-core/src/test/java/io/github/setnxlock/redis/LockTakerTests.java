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
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A lock lost to another owner is followed by a line that names who holds it now, as that
 * owner's token names it, once Redis has said: the loss itself is told first.
 *
 * @author setnx-lock authors
 */
class LockTakerTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static final String TAKER = "billing@host-2/4242/worker-7";

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {

		@Override
		protected void append(ILoggingEvent event) {
			LockTakerTests.this.lines.add(event.getFormattedMessage());
		}

	};

	private Logger logger;

	@BeforeEach
	void captureTheEngineLog() {
		// While another test class of the JVM still initialises logging, SLF4J hands out
		// a stand-in logger that takes no appender.
		await("logback initialised").atMost(Duration.ofSeconds(10))
			.until(() -> LoggerFactory.getLogger(LockTakerTests.class) instanceof Logger);
		this.logger = (Logger) LoggerFactory.getLogger("io.github.setnxlock.redis.engine.LockEvents");
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	@AfterEach
	void stopCapturing() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

	@Test
	void aRenewalThatFindsAnotherOwnerIsFollowedByWhoThatOwnerIs() {
		List<LockLostEvent> losses = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void lockLost(LockLostEvent event) {
				losses.add(event);
			}

		};
		SetnxLockSettings settings = SetnxLockSettings.builder().leaseTime(Duration.ofSeconds(1)).build();
		try (TestClient client = new TestClient(redis.server(), settings, Duration.ofSeconds(2), List.of(listener))) {
			LeasedLock lock = client.registry.obtain("taken");
			assertThat(lock.tryLock()).isTrue();
			// Another client takes the key, with a token that names its holder.
			client.redis.opsForValue()
				.set("lock:taken", TAKER + ";0123456789abcdef0123456789abcdef:1", Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(5)).until(() -> !losses.isEmpty());
			assertThat(losses).singleElement()
				.satisfies((loss) -> assertThat(loss.reason()).isEqualTo(LockLostEvent.Reason.RENEWAL_REJECTED));
			String thread = Thread.currentThread().getName();
			String taker = "Lock 'taken' lost by thread '" + thread + "' is held by " + TAKER + " now";
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(this.lines).contains(taker));
			assertThat(this.lines.indexOf(taker)).as("after the loss itself")
				.isGreaterThan(
						this.lines.indexOf("Lock 'taken' held by thread '" + thread + "' was lost: RENEWAL_REJECTED"));
			assertThat(this.lines).noneMatch((line) -> line.contains("0123456789abcdef"));
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		}
	}

}
