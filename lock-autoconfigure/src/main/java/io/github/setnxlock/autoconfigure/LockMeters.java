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
 * ({@code renewed}, {@code failed}).</li>
 * </ul>
 * Meters are created on first use, and {@link #preRegister(String)} creates a lock's
 * meters ahead, so dashboards show zeros rather than gaps.
 *
 * @author setnx-lock authors
 */
public class LockMeters implements LockListener {

	private static final String UNNAMED = "unnamed";

	private final MeterRegistry registry;

	private final String protocol;

	private final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();

	/**
	 * Create meters for a registry's locks.
	 * @param registry the meter registry
	 * @param protocol the lock registry's protocol, for the {@code protocol} tag
	 */
	public LockMeters(MeterRegistry registry, LockProtocol protocol) {
		this.registry = registry;
		this.protocol = protocol.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Create the meters of a lock now.
	 * @param name the lock's logical name
	 */
	public void preRegister(String name) {
		for (Acquisition.Result result : Acquisition.Result.values()) {
			acquireTimer(name, result);
		}
		holdTimer(name, false);
		active(name);
		takeovers(name);
		renewals(name, true);
		renewals(name, false);
		for (LockLostEvent.Reason reason : LockLostEvent.Reason.values()) {
			lost(name, reason);
		}
	}

	@Override
	public void acquisitionEnded(Acquisition acquisition) {
		acquireTimer(acquisition.name(), acquisition.result()).record(acquisition.waited());
		if (acquisition.result() == Acquisition.Result.ACQUIRED) {
			active(acquisition.name()).incrementAndGet();
			if (acquisition.tookOver()) {
				takeovers(acquisition.name()).increment();
			}
		}
	}

	@Override
	public void released(Release release) {
		active(release.name()).decrementAndGet();
		holdTimer(release.name(), release.lost()).record(release.held());
	}

	@Override
	public void renewalEnded(Renewal renewal) {
		renewals(renewal.name(), renewal.renewed()).increment();
	}

	@Override
	public void lockLost(LockLostEvent event) {
		lost(event.name(), event.reason()).increment();
	}

	private Counter lost(String name, LockLostEvent.Reason reason) {
		return Counter.builder("setnx.lock.lost")
			.description("Holds lost before their release")
			.tag("name", tagValue(name))
			.tag("reason", reason.name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.register(this.registry);
	}

	private Timer acquireTimer(String name, Acquisition.Result result) {
		return Timer.builder("setnx.lock.acquire")
			.description("Acquisitions of locks in Redis, timed from the call to its end")
			.tag("name", tagValue(name))
			.tag("result", result.name().toLowerCase(Locale.ROOT))
			.tag("protocol", this.protocol)
			.register(this.registry);
	}

	private Timer holdTimer(String name, boolean lost) {
		return Timer.builder("setnx.lock.hold")
			.description("How long holds of locks lasted")
			.tag("name", tagValue(name))
			.tag("result", lost ? "lost" : "released")
			.register(this.registry);
	}

	private Counter takeovers(String name) {
		return Counter.builder("setnx.lock.takeovers")
			.description("Acquisitions that took over a holder's expired claim")
			.tag("name", tagValue(name))
			.register(this.registry);
	}

	private Counter renewals(String name, boolean renewed) {
		return Counter.builder("setnx.lock.renewals")
			.description("Lease renewals of held locks")
			.tag("name", tagValue(name))
			.tag("result", renewed ? "renewed" : "failed")
			.register(this.registry);
	}

	private AtomicInteger active(String name) {
		return this.active.computeIfAbsent(tagValue(name), (tag) -> {
			AtomicInteger holds = new AtomicInteger();
			Gauge.builder("setnx.lock.active", holds, AtomicInteger::get)
				.description("Holds of locks in this JVM")
				.tag("name", tag)
				.register(this.registry);
			return holds;
		});
	}

	private static String tagValue(String name) {
		return name.isEmpty() ? UNNAMED : name;
	}

}
