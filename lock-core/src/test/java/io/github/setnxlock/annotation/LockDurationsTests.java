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
import java.time.Duration;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The durations an annotation names, as start-up reads them.
 *
 * @author setnx-lock authors
 */
class LockDurationsTests {

	@Test
	void aMinimumHoldOfZeroIsNoMinimum() {
		assertThat(durationsOf("noMinimum").holdAtLeast()).isNull();
		assertThat(durationsOf("aMinute").holdAtLeast()).isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void aLeaseOfZeroIsRefusedNamingTheAttribute() {
		assertThatIllegalArgumentException().isThrownBy(() -> durationsOf("noLease"))
			.withMessageContaining("leaseTime");
	}

	private static LockDurations durationsOf(String name) {
		Method method = ReflectionUtils.findMethod(Jobs.class, name);
		return LockDurations.read(method.getAnnotation(DistributedLock.class), UnaryOperator.identity());
	}

	static class Jobs {

		@DistributedLock(holdAtLeast = "0s")
		public void noMinimum() {
		}

		@DistributedLock(holdAtLeast = "1m")
		public void aMinute() {
		}

		@DistributedLock(leaseTime = "0s")
		public void noLease() {
		}

	}

}
