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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationRegistry;

import io.github.setnxlock.LockListener.Acquisition;
import io.github.setnxlock.observation.DefaultLockObservationConvention;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockObservationContext;
import io.github.setnxlock.observation.LockObservationDocumentation;
import io.github.setnxlock.observation.LockWaitObservationConvention;

/**
 * Registers, for a lock name, the timers that a meter observation handler makes of its
 * lock observations, one per result, before any observation ended with that result: so
 * dashboards and ratio alerts read zeros rather than nothing. Each gets the id Spring
 * Boot's {@code DefaultMeterObservationHandler} gives it: the convention's name, its
 * low-cardinality values after the application's observation filters, and
 * {@code error=none}. Made only where the lock observations are timed: an observation
 * registry, a meter observation handler that takes them, and the observation enabled
 * ({@code management.observations.enable.*}).
 *
 * @author setnx-lock authors
 */
final class ObservedLockTimers {

	private static final List<String> WAIT_RESULTS = Arrays.stream(Acquisition.Result.values())
		.map((result) -> result.name().toLowerCase(Locale.ROOT))
		.toList();

	private static final List<String> HOLD_RESULTS = List.of("released", "lost");

	private final MeterRegistry meters;

	private final String protocol;

	private final List<ObservationFilter> filters;

	private final ObservationConvention<LockObservationContext> waits;

	private final ObservationConvention<LockObservationContext> holds;

	private ObservedLockTimers(MeterRegistry meters, String protocol, List<ObservationFilter> filters,
			ObservationConvention<LockObservationContext> waits, ObservationConvention<LockObservationContext> holds) {
		this.meters = meters;
		this.protocol = protocol;
		this.filters = filters;
		this.waits = waits;
		this.holds = holds;
	}

	/**
	 * Return the timers of lock observations, or {@code null} when nothing times them.
	 */
	static ObservedLockTimers of(MeterRegistry meters, String protocol, ObservationRegistry observations,
			List<MeterObservationHandler<?>> handlers, List<ObservationFilter> filters,
			LockWaitObservationConvention waitConvention, LockHoldObservationConvention holdConvention) {
		if (observations == null || observations.isNoop()) {
			return null;
		}
		LockObservationContext probe = new LockObservationContext("", "", protocol);
		if (handlers.stream().noneMatch((handler) -> handler.supportsContext(probe))) {
			return null;
		}
		ObservationConvention<LockObservationContext> waits = enabled(LockObservationDocumentation.WAIT, waitConvention,
				DefaultLockObservationConvention.forWaits(), protocol, observations);
		ObservationConvention<LockObservationContext> holds = enabled(LockObservationDocumentation.HOLD, holdConvention,
				DefaultLockObservationConvention.forHolds(), protocol, observations);
		return (waits != null || holds != null) ? new ObservedLockTimers(meters, protocol, filters, waits, holds)
				: null;
	}

	/**
	 * Return the convention of an observation the registry makes, {@code null} when its
	 * predicates leave it out.
	 */
	private static ObservationConvention<LockObservationContext> enabled(LockObservationDocumentation documentation,
			ObservationConvention<LockObservationContext> convention,
			ObservationConvention<LockObservationContext> defaultConvention, String protocol,
			ObservationRegistry observations) {
		// Made, never started: no handler hears of it.
		Observation observation = documentation.observation(convention, defaultConvention,
				() -> new LockObservationContext("", "", protocol), observations);
		ObservationConvention<LockObservationContext> used = (convention != null) ? convention : defaultConvention;
		return (observation.isNoop() || used.getName() == null) ? null : used;
	}

	/**
	 * Register the timers of a lock name.
	 * @param lockName the lock's logical name as the meters tag it
	 */
	void register(String lockName) {
		register(this.waits, WAIT_RESULTS, lockName);
		register(this.holds, HOLD_RESULTS, lockName);
	}

	private void register(ObservationConvention<LockObservationContext> convention, List<String> results,
			String lockName) {
		if (convention == null) {
			return;
		}
		for (String result : results) {
			LockObservationContext lock = new LockObservationContext("", lockName, this.protocol);
			lock.setResult(result);
			lock.setName(convention.getName());
			lock.addLowCardinalityKeyValues(convention.getLowCardinalityKeyValues(lock));
			Observation.Context context = lock;
			for (ObservationFilter filter : this.filters) {
				context = filter.map(context);
			}
			List<Tag> tags = new ArrayList<>();
			for (KeyValue keyValue : context.getLowCardinalityKeyValues()) {
				tags.add(Tag.of(keyValue.getKey(), keyValue.getValue()));
			}
			tags.add(Tag.of("error", "none"));
			Timer.builder(context.getName()).tags(tags).register(this.meters);
		}
	}

}
