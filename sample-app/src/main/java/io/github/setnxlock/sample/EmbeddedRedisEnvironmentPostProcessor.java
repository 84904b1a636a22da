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

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Starts a {@code redis-server} of the sample's own on a free loopback port and points
 * {@code spring.data.redis.*} at it, so the sample runs on a machine without Redis, and
 * never touches a Redis that happens to run on the default port.
 * <p>
 * It has to be an environment post-processor: the Redis connection factory reads its
 * address from the environment when it is created, so the server must be running and its
 * port known before the application context exists. {@code sample.redis.embedded=false}
 * turns it off, and the application uses the Redis that {@code spring.data.redis.*}
 * names, like any Spring Boot application. The server stops when the application context
 * closes or fails to start ({@link EmbeddedRedisLifecycle}), and in any case when the JVM
 * exits.
 *
 * @author setnx-lock authors
 */
public class EmbeddedRedisEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/**
	 * Whether to start the embedded server; {@code true} unless set.
	 */
	static final String EMBEDDED_PROPERTY = "sample.redis.embedded";

	/**
	 * The property source that points {@code spring.data.redis.*} at the embedded server.
	 */
	static final String PROPERTY_SOURCE_NAME = "sampleEmbeddedRedis";

	private final Log logger;

	public EmbeddedRedisEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		// Logging is not set up yet at this stage; deferred lines are replayed once it
		// is.
		this.logger = logFactory.getLog(EmbeddedRedisEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		// After the config data post-processor, so application.yml and profiles can
		// switch the embedded server off.
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty(EMBEDDED_PROPERTY, Boolean.class, true)) {
			this.logger.info("Using the external Redis that spring.data.redis.* configures ("
					+ externalAddress(environment) + "); " + EMBEDDED_PROPERTY + "=false");
			return;
		}
		EmbeddedRedis server = EmbeddedRedis.start();
		environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, redisProperties(server)));
		application.addListeners(new EmbeddedRedisLifecycle(server));
		this.logger.info("Started embedded " + server + "; set " + EMBEDDED_PROPERTY
				+ "=false to use the Redis that spring.data.redis.* configures instead");
	}

	private static Map<String, Object> redisProperties(EmbeddedRedis server) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.data.redis.host", server.host());
		properties.put("spring.data.redis.port", server.port());
		// Spring Boot prefers the URL (and its credentials) over host and port, so one
		// left in the configuration for an external Redis would otherwise win.
		properties.put("spring.data.redis.url", "redis://" + server.host() + ":" + server.port());
		return properties;
	}

	private static String externalAddress(ConfigurableEnvironment environment) {
		String url = environment.getProperty("spring.data.redis.url");
		if (StringUtils.hasText(url)) {
			// Only host and port: the URL may carry a password.
			try {
				URI uri = URI.create(url.trim());
				return uri.getHost() + ":" + ((uri.getPort() != -1) ? uri.getPort() : 6379);
			}
			catch (IllegalArgumentException ex) {
				return "spring.data.redis.url";
			}
		}
		return environment.getProperty("spring.data.redis.host", "localhost") + ":"
				+ environment.getProperty("spring.data.redis.port", "6379");
	}

}
