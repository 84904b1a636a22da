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

package io.github.setnxlock.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The embedded Redis's life: started before the context and pointed at by
 * {@code spring.data.redis.*}, stopped when the context closes or fails to start, and not
 * started at all when switched off. Runs bare applications without Redis clients, so only
 * the post-processor is at work.
 *
 * @author setnx-lock authors
 */
class EmbeddedRedisEnvironmentPostProcessorTests {

	@Test
	void whenEmbeddedThenRedisRunsWhileTheContextIsOpen() throws IOException {
		EmbeddedRedis server;
		try (ConfigurableApplicationContext context = run(Bare.class)) {
			server = context.getBean(EmbeddedRedisLifecycle.BEAN_NAME, EmbeddedRedis.class);
			Environment environment = context.getEnvironment();
			assertThat(server.port()).isNotEqualTo(6379);
			assertThat(environment.getProperty("spring.data.redis.host")).isEqualTo(server.host());
			assertThat(environment.getProperty("spring.data.redis.port", Integer.class)).isEqualTo(server.port());
			assertThat(environment.getProperty("spring.data.redis.url"))
				.isEqualTo("redis://" + server.host() + ":" + server.port());
			assertThat(ping(server.host(), server.port())).isEqualTo("+PONG");
		}
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> ping(server.host(), server.port()));
	}

	@Test
	void whenEmbeddedIsOffThenSpringDataRedisPropertiesAreLeftAlone() {
		try (ConfigurableApplicationContext context = run(Bare.class, "--sample.redis.embedded=false")) {
			assertThat(context.containsBean(EmbeddedRedisLifecycle.BEAN_NAME)).isFalse();
			assertThat(context.getEnvironment()
				.getPropertySources()
				.contains(EmbeddedRedisEnvironmentPostProcessor.PROPERTY_SOURCE_NAME)).isFalse();
			assertThat(context.getEnvironment().getProperty("spring.data.redis.url")).isNull();
		}
	}

	@Test
	void whenTheContextFailsToStartThenRedisStops() {
		FailingStart.port = -1;
		assertThatException().isThrownBy(() -> run(FailingStart.class)).withStackTraceContaining("on purpose");
		assertThat(FailingStart.port).isPositive();
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), FailingStart.port).close());
	}

	@Test
	void whenARunnerFailsThenRedisOutlivesTheBeansThatUseIt() {
		FailingRunner.answeredOnTheWayOut = null;
		assertThatException().isThrownBy(() -> run(FailingRunner.class)).withStackTraceContaining("on purpose");
		// The bean's destruction still reached the server; the server stopped after it.
		assertThat(FailingRunner.answeredOnTheWayOut).isEqualTo("+PONG");
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), FailingRunner.port).close());
	}

	/**
	 * Ask a Redis server for {@code PING} in the inline form of the protocol, with no
	 * client library, as the bare applications have none.
	 */
	private static String ping(String host, int port) throws IOException {
		try (Socket socket = new Socket(host, port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
				.readLine();
		}
	}

	private static ConfigurableApplicationContext run(Class<?> source, String... args) {
		SpringApplication application = new SpringApplication(source);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application.run(args);
	}

	@Configuration(proxyBeanMethods = false)
	static class Bare {

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingRunner {

		static volatile int port;

		static volatile String answeredOnTheWayOut;

		@Bean
		DisposableBean redisClient(Environment environment) {
			port = environment.getRequiredProperty("spring.data.redis.port", Integer.class);
			return () -> answeredOnTheWayOut = ping("127.0.0.1", port);
		}

		@Bean
		CommandLineRunner failingRunner() {
			return (args) -> {
				throw new IllegalStateException("Failing on purpose after the context started");
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingStart {

		static volatile int port;

		@Bean
		String failing(Environment environment) {
			port = environment.getRequiredProperty("spring.data.redis.port", Integer.class);
			throw new IllegalStateException("Failing on purpose");
		}

	}

}
