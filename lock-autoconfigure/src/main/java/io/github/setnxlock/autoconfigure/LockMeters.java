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
import io.micrometer.core.instrument.Timer;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.redis.LockProtocol;

/**
 * Records what a lock registry reports as Micrometer meters. Every meter is tagged with
 * the lock's logical name ({@code unnamed} for locks obtained without one), never with
 * its key, so the number of meters stays bounded however many keys are locked:
 * <ul>
 * <li>{@code setnx.lock.acquire} (timer): acquisitions that went to Redis, by
 * {@code result} ({@code acquired}, {@code timeout}, {@code error}, {@code interrupted})
 * and {@code protocol}; the time is the caller's wait;</li>
 * <li>{@code setnx.lock.active} (gauge): holds in this JVM now;</li>
 * <li>{@code setnx.lock.hold} (timer): how long holds lasted, by {@code result}
 * ({@code released}, or {@code lost} when the hold had been lost before its
 * release);</li>
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
 * A lock name's meters are registered together on its first use, and looked up in a map
 * by name afterwards rather than through the meter registry on every event;
 * {@link #preRegister(String)} registers them ahead, so dashboards show zeros rather than
 * gaps.
 *
 * @author setnx-lock authors
 */
public class LockMeters implements LockListener {

	private static final String UNNAMED = "unnamed";

	private final MeterRegistry registry;

	private final String protocol;

	private final Map<String, NamedMeters> byName = new ConcurrentHashMap<>();

	private final Map<String, Counter> nodeFailures = new ConcurrentHashMap<>();

	/**
	 * Create meters for a registry's locks.
	 * @param registry the meter registry
	 * @param protocol the lock registry's protocol, for the {@code protocol} tag
	 */
	public LockMeters(MeterRegistry registry, LockProtocol protocol) {
		this(registry, protocol.name().toLowerCase(Locale.ROOT));
	}

	/**
	 * Create meters for a registry's locks.
	 * @param registry the meter registry
	 * @param protocol the {@code protocol} tag: {@code token}, {@code timestamp}, or
	 * {@code redlock} for the token protocol on several nodes
	 */
	public LockMeters(MeterRegistry registry, String protocol) {
		this.registry = registry;
		this.protocol = protocol;
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
		meters.acquire.get(acquisition.result()).record(acquisition.waited());
		if (acquisition.result() == Acquisition.Result.ACQUIRED) {
			meters.active.incrementAndGet();
			if (acquisition.tookOver()) {
				meters.takeovers.increment();
			}
		}
	}

	@Override
	public void released(Release release) {
		NamedMeters meters = meters(release.name());
		meters.active.decrementAndGet();
		(release.lost() ? meters.heldUntilLost : meters.heldUntilReleased).record(release.held());
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
		return new NamedMeters(tag, this.registry, this.protocol);
	}

	/**
	 * The meters of one lock name.
	 */
	private static final class NamedMeters {

		private final Map<Acquisition.Result, Timer> acquire = new EnumMap<>(Acquisition.Result.class);

		private final Timer heldUntilReleased;

		private final Timer heldUntilLost;

		private final AtomicInteger active = new AtomicInteger();

		private final Counter takeovers;

		private final Counter renewed;

		private final Counter renewalsFailed;

		private final Map<LockLostEvent.Reason, Counter> lost = new EnumMap<>(LockLostEvent.Reason.class);

		NamedMeters(String name, MeterRegistry registry, String protocol) {
			for (Acquisition.Result result : Acquisition.Result.values()) {
				this.acquire.put(result,
						Timer.builder("setnx.lock.acquire")
							.description("Acquisitions of locks in Redis, timed from the call to its end")
							.tag("name", name)
							.tag("result", result.name().toLowerCase(Locale.ROOT))
							.tag("protocol", protocol)
							.register(registry));
			}
			this.heldUntilReleased = holdTimer(name, "released", registry);
			this.heldUntilLost = holdTimer(name, "lost", registry);
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

		private static Timer holdTimer(String name, String result, MeterRegistry registry) {
			return Timer.builder("setnx.lock.hold")
				.description("How long holds of locks lasted")
				.tag("name", name)
				.tag("result", result)
				.register(registry);
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
