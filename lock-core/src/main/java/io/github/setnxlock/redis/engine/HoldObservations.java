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
package io.github.setnxlock.redis.engine;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.observation.DefaultLockObservationConvention;
import io.github.setnxlock.observation.LockObservationContext;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockObservationDocumentation;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * Observes waits for locks and holds of them ({@link LockObservationDocumentation}), once
 * an observation registry is set, under the application's conventions where it gave them,
 * else the registry's global ones or the defaults.
 *
 * @author setnx-lock authors
 */
final class HoldObservations {

	private static final Log logger = LogFactory.getLog(HoldObservations.class);

	private static final DefaultLockObservationConvention DEFAULT_WAITS = DefaultLockObservationConvention.forWaits();

	private static final DefaultLockObservationConvention DEFAULT_HOLDS = DefaultLockObservationConvention.forHolds();

	private final String protocol;

	private volatile ObservationRegistry registry = ObservationRegistry.NOOP;

	private volatile LockWaitObservationConvention waitConvention;

	private volatile LockHoldObservationConvention holdConvention;

	HoldObservations(String protocol) {
		this.protocol = protocol;
	}

	void setRegistry(ObservationRegistry registry) {
		this.registry = registry;
	}

	void setConventions(LockWaitObservationConvention wait, LockHoldObservationConvention hold) {
		this.waitConvention = wait;
		this.holdConvention = hold;
	}

	Observation startWait(LockKey key, String name) {
		return start(LockObservationDocumentation.WAIT, this.waitConvention, DEFAULT_WAITS, key, name);
	}

	Observation startHold(LockKey key, String name) {
		return start(LockObservationDocumentation.HOLD, this.holdConvention, DEFAULT_HOLDS, key, name);
	}

	/**
	 * Start an observation; its context is only made when something observes.
	 */
	private Observation start(LockObservationDocumentation documentation,
			ObservationConvention<LockObservationContext> convention,
			ObservationConvention<LockObservationContext> defaultConvention, LockKey key, String name) {
		ObservationRegistry observations = this.registry;
		if (observations.isNoop()) {
			// Nothing observes: skip making the context supplier on every call.
			return Observation.NOOP;
		}
		try {
			return documentation
				.observation(convention, defaultConvention,
						() -> new LockObservationContext(key.key(), name, this.protocol), observations)
				.start();
		}
		catch (RuntimeException ex) {
			// An application's handler: the lock goes on, unobserved, rather than being
			// taken in Redis by an acquisition that then reports a failure.
			logger.warn("Could not start observing lock " + LockEvents.quoted(key.key(), name) + "; it is not observed",
					ex);
			return Observation.NOOP;
		}
	}

	static void stop(Hold hold, boolean lost) {
		stop(hold.observation, lost ? "lost" : "released");
	}

	static void stop(Observation observation, String result) {
		try {
			if (observation.getContext() instanceof LockObservationContext context) {
				context.setResult(result);
			}
			observation.stop();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not stop observing a lock", ex);
		}
	}

}
