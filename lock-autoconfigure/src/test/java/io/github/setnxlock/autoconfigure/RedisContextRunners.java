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

package io.github.setnxlock.autoconfigure;

import io.github.setnxlock.test.RedisServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Context runners with Spring Boot's Redis auto-configuration pointed at a test server.
 *
 * @author setnx-lock authors
 */
final class RedisContextRunners {

	private RedisContextRunners() {
	}

	/**
	 * Return a runner with Boot's Redis auto-configuration, the lock registry's, and the
	 * given ones, connected to the server.
	 * @param server the Redis server
	 * @param autoConfigurations further auto-configurations
	 * @return the runner
	 */
	static ApplicationContextRunner withRedis(RedisServer server, Class<?>... autoConfigurations) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class))
			.withConfiguration(AutoConfigurations.of(autoConfigurations))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port());
	}

	/**
	 * Return Boot's observation registry and its default meter observation handler, which
	 * makes the wait and hold timers of the lock observations, as an application with the
	 * actuator has them.
	 * @return the auto-configurations
	 */
	static AutoConfigurations bootTimingObservations() {
		return AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class);
	}

}
