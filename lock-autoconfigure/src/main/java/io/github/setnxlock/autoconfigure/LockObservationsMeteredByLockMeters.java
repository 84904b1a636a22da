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

import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;

import io.github.setnxlock.observation.LockObservationContext;

/**
 * The meter handler of lock observations, which records nothing because
 * {@link LockMeters} already times each phase ({@code setnx.lock.acquire} the wait,
 * {@code setnx.lock.hold} the hold). Spring Boot gives observations to the first meter
 * handler that supports them; ordered first, this one keeps Boot's default handler from
 * timing {@code setnx.lock.wait} and {@code setnx.lock.held} a second time, under other
 * tag keys. Tracing and the application's other handlers still see the observations.
 *
 * @author setnx-lock authors
 */
final class LockObservationsMeteredByLockMeters implements MeterObservationHandler<LockObservationContext> {

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

}
