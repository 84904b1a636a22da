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

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.Map;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.annotation.AliasFor;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link DistributedLock} as the meta-annotation of an application's own annotation,
 * through a real proxy against a real Redis: the composed annotation's meta-attributes
 * apply, and those it exposes with {@link AliasFor} override them.
 *
 * @author setnx-lock authors
 */
class ComposedAnnotationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private AnnotationConfigApplicationContext context;

	private LettuceConnectionFactory otherFactory;

	/**
	 * A registry of another "instance", to hold locks the bean under test contends for.
	 */
	private SetnxLockRegistry other;

	private Orders orders;

	@BeforeEach
	void start() {
		this.context = LockedApplication.start(redisServer.server(), Map.of(), Orders.class);
		this.orders = this.context.getBean(Orders.class);
		this.otherFactory = RedisConnections.create(redisServer.server(), Duration.ofSeconds(2));
		this.other = new SetnxLockRegistry(RedisConnections.template(this.otherFactory), SetnxLockSettings.defaults());
	}

	@AfterEach
	void stop() {
		this.context.close();
		this.other.close();
		RedisConnections.destroy(this.otherFactory);
	}

	@Test
	void aComposedAnnotationLocksAsItsMetaAnnotationSays() {
		assertThat(this.orders.place("42")).isEqualTo("lock:order:42 held");
		holdElsewhere("order:42",
				() -> assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> this.orders.place("42"))
					.satisfies((ex) -> {
						assertThat(ex.getLockName()).isEqualTo("order");
						assertThat(ex.getKey()).isEqualTo("order:42");
					}));
	}

	@Test
	void attributesTheComposedAnnotationAliasesOverrideItsMetaAnnotation() {
		assertThat(this.orders.invoice("7", "ignored")).isEqualTo("lock:invoice:7 held");
		holdElsewhere("invoice:7", () -> assertThat(this.orders.invoice("7", "ignored")).isNull());
		assertThat(this.orders.refund("7")).isEqualTo("lock:Orders.refund:7 held");
	}

	@Test
	void theAdvisorKnowsTheLocksOfComposedAnnotations() {
		assertThat(this.context.getBean(DistributedLockAdvisor.class).lockNames()).containsExactly("Orders.refund",
				"invoice", "order");
	}

	private void holdElsewhere(String key, Runnable whileHeld) {
		LeasedLock lock = this.other.obtain(key);
		lock.lock();
		try {
			whileHeld.run();
		}
		finally {
			lock.unlock();
		}
	}

	/** A fixed lock for orders, by id. */
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(name = "order", key = "#id", waitTime = "0s")
	@interface OrderLock {

	}

	/** A lock that calls skip when it is taken, with a name and a key of their own. */
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(waitTime = "0s", onFailure = OnLockFailure.SKIP)
	@interface SkippedWhenTaken {

		@AliasFor(annotation = DistributedLock.class, attribute = "name")
		String value() default "";

		@AliasFor(annotation = DistributedLock.class, attribute = "key")
		String key() default "#p0";

	}

	static class Orders {

		private final StringRedisTemplate redis;

		Orders(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@OrderLock
		public String place(String id) {
			return held("lock:order:" + id);
		}

		@SkippedWhenTaken(value = "invoice", key = "#number")
		public String invoice(String number, String note) {
			return held("lock:invoice:" + number);
		}

		@SkippedWhenTaken
		public String refund(String id) {
			return held("lock:Orders.refund:" + id);
		}

		private String held(String key) {
			return key + (Boolean.TRUE.equals(this.redis.hasKey(key)) ? " held" : " free");
		}

	}

}
