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
package io.github.setnxlock.test;

import java.util.Map;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts one Redis server for an application context, points Spring Boot's Redis
 * properties at it, and stops it with the context.
 * <p>
 * The properties come first and set a URL, so an application's own
 * {@code spring.data.redis.url}, host, port, user, password, database and SSL switch do
 * not lead its test elsewhere. Sentinel, cluster and master-replica settings cannot be
 * undone by a property: a test of an application that sets them must clear them itself.
 * <p>
 * Every instance is equal to every other: the customizer is part of the key of Spring's
 * context cache, and two test classes that both ask for a server can share a context, and
 * its server.
 *
 * @author setnx-lock authors
 */
final class EmbeddedRedisServerContextCustomizer implements ContextCustomizer {

	/** The name of the server's bean and of the property source. */
	static final String NAME = "embeddedRedisServer";

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		RedisServer server = RedisServer.start();
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(NAME, properties(server)));
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(NAME, server);
		if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
			// Registered before any bean: destroyed after all of them, so the
			// application's Redis clients close while the server still answers.
			registry.registerDisposableBean(NAME, server::close);
		}
		else {
			context.addApplicationListener((event) -> {
				if (event instanceof ContextClosedEvent) {
					server.close();
				}
			});
		}
	}

	/**
	 * Return the properties that point Spring Boot at the server. Boot prefers a URL to
	 * host and port, and takes the user and password from it: one set here wins over the
	 * application's own URL, user, password and database. The server speaks plain RESP.
	 */
	static Map<String, Object> properties(RedisServer server) {
		String host = server.host().contains(":") ? "[" + server.host() + "]" : server.host();
		return Map.of("spring.data.redis.url", "redis://" + host + ":" + server.port(), "spring.data.redis.host",
				server.host(), "spring.data.redis.port", server.port(), "spring.data.redis.ssl.enabled", false);
	}

	@Override
	public boolean equals(Object other) {
		return other != null && other.getClass() == getClass();
	}

	@Override
	public int hashCode() {
		return getClass().hashCode();
	}

}
