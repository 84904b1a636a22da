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

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.DistributedLockAdvisor;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.SetnxLockRegistry;

/**
 * Auto-configures {@link LockMeters} when Micrometer and a {@link MeterRegistry} are
 * there, unless {@code setnx.lock.metrics.enabled=false}. The lock registry reports to
 * them as to every other {@link io.github.setnxlock.LockListener} bean; the meters of
 * every {@code @DistributedLock} are registered at start-up. The wait and hold timers are
 * Spring Boot's meter observation handler's, made of the lock observations; where it
 * times them, the timers of a lock name are registered with its other meters
 * ({@link ObservedLockTimers}).
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, LockRegistry.class })
@ConditionalOnBooleanProperty(name = { "setnx.lock.enabled", "setnx.lock.metrics.enabled" }, matchIfMissing = true)
public final class SetnxLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMeters setnxLockMeters(MeterRegistry meterRegistry, SetnxLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<MeterObservationHandler<?>> meterHandlers, ObjectProvider<ObservationFilter> filters,
			ObjectProvider<LockWaitObservationConvention> waitConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		// Under Redlock, as the observations name it.
		String protocol = SetnxLockRegistry.protocolName(properties.getProtocol(),
				!properties.getRedlock().getNodes().isEmpty());
		return new LockMeters(meterRegistry,
				ObservedLockTimers.of(meterRegistry, protocol, observationRegistry.getIfAvailable(),
						meterHandlers.orderedStream().toList(), filters.orderedStream().toList(),
						waitConvention.getIfUnique(), holdConvention.getIfUnique()));
	}

	@Bean
	static SmartInitializingSingleton setnxLockMetersPreRegistration(ObjectProvider<LockMeters> meters,
			ObjectProvider<DistributedLockAdvisor> advisor) {
		return () -> {
			LockMeters lockMeters = meters.getIfUnique();
			DistributedLockAdvisor lockAdvisor = advisor.getIfUnique();
			if (lockMeters != null && lockAdvisor != null) {
				lockAdvisor.lockNames().forEach(lockMeters::preRegister);
			}
		};
	}

}
