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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the advisor checks and warns about while the beans are created: a key that reads a
 * variable the method does not have fails start-up, and a duration without a unit or a
 * lease under a second is logged, once per method.
 *
 * @author setnx-lock authors
 */
class StartUpChecksTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	private final CapturedLog log = CapturedLog.of(DistributedLockAdvisor.class.getName());

	@AfterEach
	void stop() {
		this.log.close();
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
	}

	@Test
	void aKeyThatNamesAParameterTheMethodDoesNotHaveFailsStartUpWithTheValidNames() {
		assertStartUpFails(UnknownVariable.class,
				"@DistributedLock on " + UnknownVariable.class.getName() + ".place(String, int): key '#orderId'"
						+ " refers to #orderId, which the method does not have;"
						+ " the variables are #id, #line, #p0, #p1, #a0, #a1, #root, #this");
	}

	@Test
	void theKeyOfAComposedAnnotationIsCheckedToo() {
		assertStartUpFails(ComposedUnknownVariable.class,
				"@DistributedLock on " + ComposedUnknownVariable.class.getName() + ".place(String): key '#id'"
						+ " refers to #id, which the method does not have; the variables are #orderId, #p0, #a0,"
						+ " #root, #this");
	}

	@Test
	void aBareNumberOrAShortLeaseIsLoggedOncePerMethod() {
		start(Map.of("test.wait", "250"), Timed.class, PeriodicJob.class);
		assertThat(this.log.linesContaining(Timed.class.getName() + ".")).containsExactlyInAnyOrder(
				"WARN @DistributedLock on " + Timed.class.getName() + ".bare(): leaseTime = \"5\" is 5 ms;"
						+ " write \"5ms\" or \"5s\"",
				"WARN @DistributedLock on " + Timed.class.getName() + ".shortLease(): leaseTime = \"500ms\" is under"
						+ " 1s, and a lease the annotation names is never renewed, so the lock may end while the"
						+ " method still runs",
				"WARN @DistributedLock on " + Timed.class.getName() + ".several(): waitTime = \"${test.wait}\""
						+ " (resolved to \"250\") is 250 ms; write \"250ms\" or \"250s\". holdAtLeast = \"2000\""
						+ " is 2000 ms; write \"2000ms\" or \"2000s\"");
		// Through a JDK proxy both the interface's method and the class's are matched.
		assertThat(this.log.linesContaining(PeriodicJob.class.getName())).containsExactly("WARN @DistributedLock on "
				+ PeriodicJob.class.getName() + ".run(): waitTime = \"100\" is 100 ms; write \"100ms\" or \"100s\"");
	}

	private void assertStartUpFails(Class<?> bean, String message) {
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> start(Map.of(), bean))
			.satisfies((ex) -> assertThat(StartUpFailures.causes(ex)).contains(message));
	}

	private void start(Map<String, Object> properties, Class<?>... beans) {
		this.contexts.add(LockedApplication.start(redisServer.server(), properties, beans));
	}

	static class UnknownVariable {

		@DistributedLock(key = "#orderId")
		public void place(String id, int line) {
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(name = "order", key = "#id")
	@interface OrderLock {

	}

	static class ComposedUnknownVariable {

		@OrderLock
		public void place(String orderId) {
		}

	}

	static class Timed {

		@DistributedLock(leaseTime = "5")
		public void bare() {
		}

		@DistributedLock(leaseTime = "500ms")
		public void shortLease() {
		}

		@DistributedLock(waitTime = "${test.wait}", leaseTime = "2s", holdAtLeast = "2000")
		public void several() {
		}

		@DistributedLock(waitTime = "0", leaseTime = "1s", holdAtLeast = "100ms")
		public void fine() {
		}

	}

	interface Job {

		void run();

	}

	static class PeriodicJob implements Job {

		@Override
		@DistributedLock(waitTime = "100")
		public void run() {
		}

	}

}
