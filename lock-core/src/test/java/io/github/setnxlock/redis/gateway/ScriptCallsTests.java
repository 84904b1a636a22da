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
package io.github.setnxlock.redis.gateway;

import java.time.Duration;
import java.util.List;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.token.TokenLockCommands;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Which path the lock scripts take for a connection factory. Choosing reads only the
 * factory's configuration, so those factories are never started. What each path does
 * against a real Redis is the contract suite's part
 * ({@link io.github.setnxlock.redis.RedisContractTests}, on Lettuce and on Jedis).
 *
 * @author setnx-lock authors
 */
class ScriptCallsTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final CommandRunner runner = new CommandRunner();

	@AfterEach
	void close() {
		this.runner.close();
	}

	@Test
	void lettuceSharingItsConnectionSendsScriptsWithoutAThreadOfOurs() {
		assertThat(calls(lettuce(LettuceClientConfiguration.builder().build(), true)))
			.isInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void lettuceWithADedicatedConnectionPerCallRunsScriptsOnThreads() {
		assertThat(calls(lettuce(LettuceClientConfiguration.builder().build(), false)))
			.isNotInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void lettuceThatDoesNotTimeCommandsOutRunsScriptsOnThreads() {
		ClientOptions noTimeouts = ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.build();
		assertThat(calls(lettuce(LettuceClientConfiguration.builder().clientOptions(noTimeouts).build(), true)))
			.isNotInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void lettuceThatTimesCommandsOutItselfSendsScriptsWithoutAThreadOfOurs() {
		ClientOptions timeouts = ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(3)))
			.build();
		assertThat(calls(lettuce(LettuceClientConfiguration.builder().clientOptions(timeouts).build(), true)))
			.isInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void jedisRunsScriptsOnThreads() {
		assertThat(calls(new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1))))
			.isNotInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void aTemplateWithoutAFactoryYetIsChosenForOnItsFirstCall() {
		StringRedisTemplate template = new StringRedisTemplate();
		// A registry is made before the template has its factory: that must not throw.
		assertThatNoException().isThrownBy(() -> new RedisGateway(template, List.of()).close());
		assertThat(ScriptCalls.choose(template, this.runner)).isNotInstanceOf(LettuceScriptCalls.class);
		template.setConnectionFactory(lettuce(LettuceClientConfiguration.builder().build(), true));
		assertThat(ScriptCalls.choose(template, this.runner)).isInstanceOf(LettuceScriptCalls.class);
	}

	@Test
	void aFactoryThatResetsItsSharedConnectionIsAskedForTheNewOne() throws InterruptedException {
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory))) {
			LeasedLock lock = registry.obtain("reset");
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			lock.unlock();
			factory.resetConnection();
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			assertThat(redis.server().execute("EXISTS", "lock:reset")).isEqualTo(1L);
			lock.unlock();
			assertThat(redis.server().execute("EXISTS", "lock:reset")).isEqualTo(0L);
		}
		finally {
			RedisConnections.destroy(factory);
		}
	}

	@Test
	void aServerWithoutACompareAndDeleteIsNeverSentOneAndReleasesWithTheScript() throws InterruptedException {
		assumeTrue(!redis.server().hasCommand("DELIFEQ") && !redis.server().hasCommand("DELEX"),
				"the test server has DELIFEQ or DELEX");
		LettuceConnectionFactory factory = RedisConnections.create(redis.server(), Duration.ofSeconds(2));
		long errorsBefore;
		try (SetnxLockRegistry registry = new SetnxLockRegistry(RedisConnections.template(factory))) {
			LeasedLock lock = registry.obtain("scripted");
			// Connecting has refusals of its own (Lettuce's CLIENT SETINFO on Redis 7.0).
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			errorsBefore = errorReplies();
			for (int i = 0; i < 5; i++) {
				lock.unlock();
				assertThat(redis.server().execute("EXISTS", "lock:scripted")).isEqualTo(0L);
				assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			}
			lock.unlock();
		}
		finally {
			RedisConnections.destroy(factory);
		}
		assertThat(errorReplies()).isEqualTo(errorsBefore);
		assertThat(redis.server().execute("SCRIPT", "EXISTS", TokenLockCommands.RELEASE.sha1())).isEqualTo(List.of(1L));
	}

	/**
	 * Return how many "ERR" replies the server gave, which is how Redis refuses a command
	 * it does not know.
	 */
	private static long errorReplies() {
		// errorstat_ERR:count=3
		return Long.parseLong(redis.server().info("errorstats").getOrDefault("errorstat_ERR", "count=0").substring(6));
	}

	private ScriptCalls calls(RedisConnectionFactory factory) {
		return ScriptCalls.choose(new StringRedisTemplate(factory), this.runner);
	}

	private static LettuceConnectionFactory lettuce(LettuceClientConfiguration client, boolean share) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 1), client);
		factory.setShareNativeConnection(share);
		return factory;
	}

}
