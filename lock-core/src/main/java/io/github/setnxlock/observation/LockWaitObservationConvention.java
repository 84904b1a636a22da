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

package io.github.setnxlock.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and key values of observations of waits for locks ({@code setnx.lock.acquire}
 * by default, from the call until the lock is had or the wait ends). An application
 * replaces {@link DefaultLockObservationConvention} by giving the registry one of these
 * ({@code SetnxLockRegistry#setWaitObservationConvention}; with the starter, a bean of
 * this type). A {@link io.micrometer.observation.GlobalObservationConvention} registered
 * with the observation registry applies too, when no convention of this type is given.
 *
 * @author setnx-lock authors
 */
public interface LockWaitObservationConvention extends ObservationConvention<LockObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

}
