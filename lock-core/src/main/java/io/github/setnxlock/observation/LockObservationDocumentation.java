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

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of a lock registry, so that traces show how long a call waited for a
 * lock and how long it held it, and a meter observation handler (Spring Boot's default
 * one) times both. Their names and low-cardinality keys are those of the timers
 * dashboards and alerts already read: {@code setnx.lock.acquire} and
 * {@code setnx.lock.hold}, tagged {@code name}, {@code protocol} and {@code result}. The
 * lock's key, unbounded, is a high-cardinality value under a name of its own
 * ({@code setnx.lock.key}), for traces only.
 *
 * @author setnx-lock authors
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/**
	 * A wait for a lock that went to Redis, from the call to its end:
	 * {@code setnx.lock.acquire}.
	 */
	WAIT,

	/**
	 * A hold of a lock, from its acquisition to its release: {@code setnx.lock.hold}.
	 */
	HOLD;

	@Override
	public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
		return DefaultLockObservationConvention.class;
	}

	@Override
	public KeyName[] getLowCardinalityKeyNames() {
		return LowCardinalityKeyNames.values();
	}

	@Override
	public KeyName[] getHighCardinalityKeyNames() {
		return HighCardinalityKeyNames.values();
	}

	/**
	 * Keys with a bounded set of values, fit for metrics: the tag keys of the timers.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * The lock's logical name, {@code unnamed} when it has none.
		 */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * The registry's protocol: {@code token}, {@code timestamp} or {@code redlock}.
		 */
		PROTOCOL {
			@Override
			public String asString() {
				return "protocol";
			}
		},

		/**
		 * How the wait or hold ended: {@code acquired}, {@code timeout}, {@code error},
		 * {@code interrupted}; {@code released} or {@code lost}. {@code unknown} while it
		 * goes on.
		 */
		RESULT {
			@Override
			public String asString() {
				return "result";
			}
		}

	}

	/**
	 * Keys whose values are unbounded: for traces only.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The lock's key, without the registry's prefix.
		 */
		KEY {
			@Override
			public String asString() {
				return "setnx.lock.key";
			}
		}

	}

}
