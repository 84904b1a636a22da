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

import java.lang.reflect.Method;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
import org.junit.jupiter.api.Test;

import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key of an annotated call stays out of what the advice passes on: the message, the
 * cause and the suppressed exceptions; a chain that loops back on itself ends the
 * redaction where it loops.
 *
 * @author setnx-lock authors
 */
class KeyRedactionTests {

	private static final String KEY = "customer:secret-4711";

	private final LockedMethod locked = locked("update");

	@Test
	void theMessageNamesTheLockAndTheMethodAndCodeKeepsTheKey() {
		LockLostException lost = new LockLostException(KEY, "Lock '" + KEY + "' was lost before unlock()");
		Throwable redacted = KeyRedaction.redact(lost, KEY, this.locked);
		assertThat(redacted).isExactlyInstanceOf(LockLostException.class)
			.hasMessage("Lock 'customer' of " + Customers.class.getName()
					+ ".update(String): Lock '<key>' was lost before unlock()");
		assertThat(((LockLostException) redacted).getKey()).isEqualTo(KEY);
		assertThat(redacted.getStackTrace()).isEqualTo(lost.getStackTrace());
	}

	@Test
	void suppressedExceptionsAndCausesAreRedactedToo() {
		IllegalStateException redisError = new IllegalStateException("connection reset");
		LockAccessException unanswered = new LockAccessException(KEY,
				"Redis did not answer the release of lock '" + KEY + "'", redisError);
		LockLostException lost = new LockLostException(KEY, "Lock was lost before unlock()");
		lost.addSuppressed(unanswered);
		Throwable redacted = KeyRedaction.redact(lost, KEY, this.locked);
		assertThat(redacted).isNotSameAs(lost).hasMessage("Lock was lost before unlock()");
		assertThat(redacted.getSuppressed()).singleElement()
			.satisfies((suppressed) -> assertThat(suppressed).isExactlyInstanceOf(LockAccessException.class)
				.hasMessageNotContaining(KEY)
				.hasCause(redisError));
	}

	@Test
	void aChainThatLoopsEndsTheRedaction() {
		LockLostException inner = new LockLostException(KEY, "inner of '" + KEY + "'");
		LockAccessException outer = new LockAccessException(KEY, "outer of '" + KEY + "'", inner);
		inner.initCause(outer);
		Throwable redacted = KeyRedaction.redact(outer, KEY, this.locked);
		assertThat(redacted.getMessage()).doesNotContain(KEY);
		assertThat(redacted.getCause()).isExactlyInstanceOf(LockLostException.class);
		assertThat(redacted.getCause().getMessage()).doesNotContain(KEY);
	}

	@Test
	void failuresWithoutTheKeyAndOtherTypesArePassedOnAsTheyAre() {
		LockAccessException unrelated = new LockAccessException(KEY, "Redis is down", null);
		assertThat(KeyRedaction.redact(unrelated, KEY, this.locked)).isSameAs(unrelated);
		IllegalStateException foreign = new IllegalStateException("about '" + KEY + "'");
		assertThat(KeyRedaction.redact(foreign, KEY, this.locked)).isSameAs(foreign);
		assertThat(KeyRedaction.redact((Throwable) null, KEY, this.locked)).isNull();
	}

	@Test
	void aLockWithoutAKeyExpressionHasNoArgumentsToHide() {
		LockedMethod unkeyed = locked("run");
		LockLostException lost = new LockLostException("Customers.run", "Lock 'Customers.run' was lost");
		assertThat(KeyRedaction.redact(lost, "Customers.run", unkeyed)).isSameAs(lost);
	}

	private static LockedMethod locked(String name) {
		Method method = ReflectionUtils.findMethod(Customers.class, name,
				"update".equals(name) ? new Class<?>[] { String.class } : new Class<?>[0]);
		return LockedMethod.of(method, Customers.class, method.getAnnotation(DistributedLock.class),
				UnaryOperator.identity());
	}

	static class Customers {

		@DistributedLock(name = "customer", key = "#id")
		public void update(String id) {
		}

		@DistributedLock
		public void run() {
		}

	}

}
