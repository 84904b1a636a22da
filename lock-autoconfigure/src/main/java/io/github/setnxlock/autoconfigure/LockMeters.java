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

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;

/**
 * Records what a lock registry reports as Micrometer meters, beside the timers its
 * observations give. Every meter is tagged with the lock's logical name ({@code unnamed}
 * for locks obtained without one), never with its key, so the number of meters stays
 * bounded however many keys are locked:
 * <ul>
 * <li>{@code setnx.lock.active} (gauge): holds in this JVM now;</li>
 * <li>{@code setnx.lock.takeovers} (counter): acquisitions that took over a holder's
 * expired claim (timestamp protocol);</li>
 * <li>{@code setnx.lock.lost} (counter): holds lost before their release, by
 * {@code reason};</li>
 * <li>{@code setnx.lock.renewals} (counter): lease renewals, by {@code result}
 * ({@code renewed}, {@code failed});</li>
 * <li>{@code setnx.lock.node.failures} (counter, Redlock only): calls a node failed its
 * part of, by {@code node} ({@code host:port}, one of the configured nodes, so the tag
 * stays bounded) and {@code reason} ({@code timeout}, {@code error}).</li>
 * </ul>
 * The wait and hold timers, {@code setnx.lock.acquire} and {@code setnx.lock.hold}, are
 * not made here: a meter observation handler (Spring Boot's default one) makes them of
 * the registry's observations
 * ({@link io.github.setnxlock.observation.LockObservationDocumentation}), and without an
 * observation registry there are none.
 * <p>
 * A lock name's meters are registered together on its first use, and looked up in a map
 * by name afterwards rather than through the meter registry on every event;
 * {@link #preRegister(String)} registers them ahead, so dashboards show zeros rather than
 * gaps. With the starter, where the observations are timed, a name's timers are
 * registered with them, one per result.
 *
 * @author setnx-lock authors
 */
public class LockMeters implements LockListener {

	private static final String UNNAMED = "unnamed";

	private final MeterRegistry registry;

	private final Map<String, NamedMeters> byName = new ConcurrentHashMap<>();

	private final Map<String, Counter> nodeFailures = new ConcurrentHashMap<>();

	private final ObservedLockTimers timers;

	/**
	 * Create meters for a registry's locks.
	 * @param registry the meter registry
	 */
	public LockMeters(MeterRegistry registry) {
		this(registry, null);
	}

	/**
	 * Create meters that also register the timers of a lock name's observations ahead.
	 */
	LockMeters(MeterRegistry registry, ObservedLockTimers timers) {
		this.registry = registry;
		this.timers = timers;
	}

	/**
	 * Create the meters of a lock now.
	 * @param name the lock's logical name
	 */
	public void preRegister(String name) {
		meters(name);
	}

	@Override
	public void acquisitionEnded(Acquisition acquisition) {
		NamedMeters meters = meters(acquisition.name());
		if (acquisition.result() == Acquisition.Result.ACQUIRED) {
			meters.active.incrementAndGet();
			if (acquisition.tookOver()) {
				meters.takeovers.increment();
			}
		}
	}

	@Override
	public void released(Release release) {
		meters(release.name()).active.decrementAndGet();
	}

	@Override
	public void renewalEnded(Renewal renewal) {
		NamedMeters meters = meters(renewal.name());
		(renewal.renewed() ? meters.renewed : meters.renewalsFailed).increment();
	}

	@Override
	public void lockLost(LockLostEvent event) {
		meters(event.name()).lost.get(event.reason()).increment();
	}

	@Override
	public void nodeFailed(NodeFailure failure) {
		String reason = failure.timedOut() ? "timeout" : "error";
		this.nodeFailures
			.computeIfAbsent(failure.node() + " " + reason,
					(ignored) -> Counter.builder("setnx.lock.node.failures")
						.description("Calls a Redlock node failed its part of, decided by the other nodes")
						.tag("node", failure.node())
						.tag("reason", reason)
						.register(this.registry))
			.increment();
	}

	private NamedMeters meters(String name) {
		String tag = name.isEmpty() ? UNNAMED : name;
		NamedMeters meters = this.byName.get(tag);
		return (meters != null) ? meters : this.byName.computeIfAbsent(tag, this::register);
	}

	private NamedMeters register(String tag) {
		if (this.timers != null) {
			this.timers.register(tag);
		}
		return new NamedMeters(tag, this.registry);
	}

	/**
	 * The meters of one lock name.
	 */
	private static final class NamedMeters {

		private final AtomicInteger active = new AtomicInteger();

		private final Counter takeovers;

		private final Counter renewed;

		private final Counter renewalsFailed;

		private final Map<LockLostEvent.Reason, Counter> lost = new EnumMap<>(LockLostEvent.Reason.class);

		NamedMeters(String name, MeterRegistry registry) {
			Gauge.builder("setnx.lock.active", this.active, AtomicInteger::get)
				.description("Holds of locks in this JVM")
				.tag("name", name)
				.register(registry);
			this.takeovers = Counter.builder("setnx.lock.takeovers")
				.description("Acquisitions that took over a holder's expired claim")
				.tag("name", name)
				.register(registry);
			this.renewed = renewals(name, "renewed", registry);
			this.renewalsFailed = renewals(name, "failed", registry);
			for (LockLostEvent.Reason reason : LockLostEvent.Reason.values()) {
				this.lost.put(reason,
						Counter.builder("setnx.lock.lost")
							.description("Holds lost before their release")
							.tag("name", name)
							.tag("reason", reason.name().toLowerCase(Locale.ROOT).replace('_', '-'))
							.register(registry));
			}
		}

		private static Counter renewals(String name, String result, MeterRegistry registry) {
			return Counter.builder("setnx.lock.renewals")
				.description("Lease renewals of held locks")
				.tag("name", name)
				.tag("result", result)
				.register(registry);
		}

	}

}
