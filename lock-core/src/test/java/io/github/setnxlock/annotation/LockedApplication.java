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

package io.github.setnxlock.annotation;

import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A small application of {@link DistributedLock} beans on a test's Redis server: a
 * connection, a registry, the advisor, and what Spring Boot's AOP auto-configuration adds
 * (an auto-proxy creator for infrastructure advisors).
 *
 * @author setnx-lock authors
 */
final class LockedApplication {

	private LockedApplication() {
	}

	/**
	 * Start an application.
	 * @param server the Redis server
	 * @param properties the environment's properties, for placeholders
	 * @param beans the classes of the beans under test
	 * @return the started context, for the caller to close
	 */
	static AnnotationConfigApplicationContext start(RedisServer server, Map<String, Object> properties,
			Class<?>... beans) {
		return start(server, properties, UnaryOperator.identity(), beans);
	}

	/**
	 * Start an application whose advice reaches the registry through a wrapper, for tests
	 * that change what the registry's locks answer.
	 * @param server the Redis server
	 * @param properties the environment's properties, for placeholders
	 * @param wrapper wraps the application's registry for the advice
	 * @param beans the classes of the beans under test
	 * @return the started context, for the caller to close
	 */
	static AnnotationConfigApplicationContext start(RedisServer server, Map<String, Object> properties,
			UnaryOperator<LockRegistry> wrapper, Class<?>... beans) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(context);
		context.registerBean(LettuceConnectionFactory.class,
				() -> RedisConnections.create(server, Duration.ofSeconds(2)),
				(definition) -> definition.setDestroyMethodName("destroy"));
		context.registerBean(StringRedisTemplate.class,
				() -> RedisConnections.template(context.getBean(LettuceConnectionFactory.class)));
		context.registerBean(SetnxLockRegistry.class,
				() -> new SetnxLockRegistry(context.getBean(StringRedisTemplate.class), SetnxLockSettings.defaults()),
				(definition) -> definition.setDestroyMethodName("close"));
		context.registerBean(DistributedLockAdvisor.class,
				() -> new DistributedLockAdvisor(() -> wrapper.apply(context.getBean(SetnxLockRegistry.class)),
						() -> LockTimings.withDefaultWait(Duration.ofSeconds(2))),
				(definition) -> definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE));
		for (Class<?> bean : beans) {
			context.registerBean(bean);
		}
		context.refresh();
		return context;
	}

}
