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
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockObservationContext;
import io.github.setnxlock.observation.LockObservationDocumentation;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.engine.KeyState.KeyStates;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.ReleaseMessages;

/**
 * What the engine counts, read locally without Redis: for the health details, and for
 * tests that need a handshake with the engine's threads. Internal API.
 * <p>
 * What it reports as it goes, the observations of waits and holds, is
 * {@link HoldObservations}'s.
 *
 * @author setnx-lock authors
 */
public final class EngineStats {

	private final KeyStates states;

	private final LeaseRenewer renewer;

	private final ReleaseMessages messages;

	private final LocalHandoff handoff;

	EngineStats(KeyStates states, LeaseRenewer renewer, ReleaseMessages messages, LocalHandoff handoff) {
		this.states = states;
		this.renewer = renewer;
		this.messages = messages;
		this.handoff = handoff;
	}

	/**
	 * Return how many holds were handed over locally, without a round trip to Redis.
	 * @return the number of local hand-offs
	 */
	public long localHandoffs() {
		return this.handoff.count();
	}

	/**
	 * Return how many keys the engine keeps state for: those some owner holds or waits
	 * for.
	 * @return the number of keys
	 */
	public int localKeys() {
		return this.states.size();
	}

	/**
	 * Return how many owners wait for a lock, over every key.
	 * @return the number of waiting owners
	 */
	public int waiting() {
		int[] waiting = new int[1];
		this.states.forEach((state) -> waiting[0] += state.waiting());
		return waiting[0];
	}

	/**
	 * Return how many keys have state kept though nobody holds or waits for them: none
	 * but for a moment, or something was left behind.
	 * @return the number of idle keys
	 */
	public int idleKeys() {
		int[] idle = new int[1];
		this.states.forEach((state) -> idle[0] += state.isIdle() ? 1 : 0);
		return idle[0];
	}

	/**
	 * Return the state of a key, if some owner holds or waits for it.
	 * @param redisKey the lock key in Redis
	 * @return the state, or {@code null}
	 */
	public KeyState keyState(String redisKey) {
		return this.states.find(redisKey);
	}

	/**
	 * Return how many holds the renewer looks after.
	 * @return the number of holds
	 */
	public int renewing() {
		return this.renewer.size();
	}

	/**
	 * Return how many leases were extended.
	 * @return the number of renewals
	 */
	public long renewals() {
		return this.renewer.renewals();
	}

	/**
	 * Return how many batches of renewals were sent, one round trip each.
	 * @return the number of batches
	 */
	public long renewalBatches() {
		return this.renewer.batches();
	}

	/**
	 * Return how many tasks wait on the renewal thread's schedule.
	 * @return the number of tasks
	 */
	public int scheduledTasks() {
		return this.renewer.thread.scheduledTasks();
	}

	/**
	 * Whether release messages are being received, without subscribing.
	 * @return {@code true} while subscribed
	 */
	public boolean listening() {
		return this.messages.listening();
	}

	/**
	 * Whether the subscription to release messages was asked for, by a first wait.
	 * @return {@code true} once asked for, subscribed or not
	 */
	public boolean subscriptionRequested() {
		return this.messages.requested();
	}

	/**
	 * Whether release messages are being received, subscribing on the first call.
	 * @return {@code true} while subscribed
	 */
	public boolean subscribeAndCheck() {
		return this.messages.isListening();
	}

	/**
	 * Observes waits for locks and holds of them ({@link LockObservationDocumentation}),
	 * once an observation registry is set, under the application's conventions where it
	 * gave them, else the registry's global ones or the defaults.
	 */
	static final class HoldObservations {

		private static final Log logger = LogFactory.getLog(HoldObservations.class);

		private static final DefaultLockObservationConvention DEFAULT_WAITS = DefaultLockObservationConvention
			.forWaits();

		private static final DefaultLockObservationConvention DEFAULT_HOLDS = DefaultLockObservationConvention
			.forHolds();

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
				// An application's handler: the lock goes on, unobserved, rather than
				// being taken in Redis by an acquisition that then reports a failure.
				logger.warn(
						"Could not start observing lock " + LockEvents.quoted(key.key(), name) + "; it is not observed",
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

}
