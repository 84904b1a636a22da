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
 * The durations an annotation names, as start-up reads them, in every format of
 * {@link DistributedLock} attributes.
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

	@Test
	void simpleAndIsoFormatsAreRead() {
		assertThat(LockDurations.parse("", "waitTime")).isNull();
		assertThat(LockDurations.parse("  ", "waitTime")).isNull();
		assertThat(LockDurations.parse("250", "waitTime")).isEqualTo(Duration.ofMillis(250));
		assertThat(LockDurations.parse("250ms", "waitTime")).isEqualTo(Duration.ofMillis(250));
		assertThat(LockDurations.parse("5s", "waitTime")).isEqualTo(Duration.ofSeconds(5));
		assertThat(LockDurations.parse("5S", "waitTime")).isEqualTo(Duration.ofSeconds(5));
		assertThat(LockDurations.parse("2m", "waitTime")).isEqualTo(Duration.ofMinutes(2));
		assertThat(LockDurations.parse("1h", "waitTime")).isEqualTo(Duration.ofHours(1));
		assertThat(LockDurations.parse("1d", "waitTime")).isEqualTo(Duration.ofDays(1));
		assertThat(LockDurations.parse("300us", "waitTime")).isEqualTo(Duration.ofNanos(300_000));
		assertThat(LockDurations.parse("PT1.5S", "waitTime")).isEqualTo(Duration.ofMillis(1500));
		assertThat(LockDurations.parse(" 0s ", "waitTime")).isZero();
	}

	@Test
	void springsSimpleCompositeAndIsoStylesAreRead() {
		assertThat(LockDurations.parse("10s", "leaseTime")).isEqualTo(Duration.ofSeconds(10));
		assertThat(LockDurations.parse("500ms", "leaseTime")).isEqualTo(Duration.ofMillis(500));
		assertThat(LockDurations.parse("1m", "leaseTime")).isEqualTo(Duration.ofMinutes(1));
		assertThat(LockDurations.parse("750ns", "leaseTime")).isEqualTo(Duration.ofNanos(750));
		assertThat(LockDurations.parse("PT5S", "leaseTime")).isEqualTo(Duration.ofSeconds(5));
		assertThat(LockDurations.parse("pt5s", "leaseTime")).isEqualTo(Duration.ofSeconds(5));
		assertThat(LockDurations.parse("P1D", "leaseTime")).isEqualTo(Duration.ofDays(1));
		assertThat(LockDurations.parse("1h30m", "leaseTime")).isEqualTo(Duration.ofMinutes(90));
		assertThat(LockDurations.parse("+5s", "leaseTime")).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void onlyANumberWithoutAUnitIsBare() {
		assertThat(LockDurations.isBareNumber("5")).isTrue();
		assertThat(LockDurations.isBareNumber(" 250 ")).isTrue();
		assertThat(LockDurations.isBareNumber("5ms")).isFalse();
		assertThat(LockDurations.isBareNumber("PT5S")).isFalse();
		assertThat(LockDurations.isBareNumber("")).isFalse();
	}

	@Test
	void badTextIsRejectedWithTheAttributeName() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("5 seconds", "leaseTime"))
			.withMessage("leaseTime must be a duration such as '500ms', '5s' or 'PT5S', but was '5 seconds'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("5y", "leaseTime"))
			.withMessageContaining("but was '5y'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("-1s", "holdAtLeast"))
			.withMessage("holdAtLeast must not be negative, but was '-1s'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("PT-1S", "waitTime"))
			.withMessage("waitTime must not be negative, but was 'PT-1S'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("99999999999999999999s", "waitTime"))
			.withMessageContaining("must be a duration");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("1.5s", "waitTime"))
			.withMessage("waitTime must be a duration such as '500ms', '5s' or 'PT5S', but was '1.5s'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("PT5X", "waitTime"))
			.withMessageContaining("but was 'PT5X'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockDurations.parse("-PT5S", "leaseTime"))
			.withMessage("leaseTime must not be negative, but was '-PT5S'");
	}

}
