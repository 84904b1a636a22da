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

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

import io.github.setnxlock.observation.LockObservationDocumentation.HighCardinalityKeyNames;
import io.github.setnxlock.observation.LockObservationDocumentation.LowCardinalityKeyNames;

/**
 * The default names and key values of lock observations: {@code setnx.lock.acquire} and
 * {@code setnx.lock.hold}, tagged with the lock's name, protocol and result, and its key
 * as a high-cardinality value ({@link LockObservationDocumentation} says why these
 * names). {@link Waits} and {@link Holds} are the defaults of the two observations; an
 * application that wants other names or tags extends them, and a meter observation
 * handler names and tags its timers after them.
 *
 * @author setnx-lock authors
 */
public class DefaultLockObservationConvention implements ObservationConvention<LockObservationContext> {

	private final String name;

	/**
	 * Create the convention of one observation.
	 * @param name the observation's name
	 */
	public DefaultLockObservationConvention(String name) {
		this.name = name;
	}

	/**
	 * Return the convention of waits for a lock.
	 * @return the convention
	 */
	public static Waits forWaits() {
		return new Waits("setnx.lock.acquire");
	}

	/**
	 * Return the convention of holds of a lock.
	 * @return the convention
	 */
	public static Holds forHolds() {
		return new Holds("setnx.lock.hold");
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		// The last part of the name: "acquire orders", "hold orders".
		return this.name.substring(this.name.lastIndexOf('.') + 1) + " "
				+ (context.getLockName().isEmpty() ? context.getKey() : context.getLockName());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		return KeyValues.of(
				LowCardinalityKeyNames.NAME
					.withValue(context.getLockName().isEmpty() ? "unnamed" : context.getLockName()),
				LowCardinalityKeyNames.PROTOCOL.withValue(context.getProtocol()),
				LowCardinalityKeyNames.RESULT.withValue(context.getResult()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
		return KeyValues.of(HighCardinalityKeyNames.KEY.withValue(context.getKey()));
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

	/**
	 * The default convention of waits for locks.
	 */
	public static class Waits extends DefaultLockObservationConvention implements LockWaitObservationConvention {

		/**
		 * Create the convention of waits under a name of its own.
		 * @param name the observation's name
		 */
		public Waits(String name) {
			super(name);
		}

	}

	/**
	 * The default convention of holds of locks.
	 */
	public static class Holds extends DefaultLockObservationConvention implements LockHoldObservationConvention {

		/**
		 * Create the convention of holds under a name of its own.
		 * @param name the observation's name
		 */
		public Holds(String name) {
			super(name);
		}

	}

}
