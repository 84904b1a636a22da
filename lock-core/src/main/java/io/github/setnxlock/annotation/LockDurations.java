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

package io.github.setnxlock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LeaseLimits;

/**
 * The durations of a {@link DistributedLock}, read and checked, with what about them
 * deserves a warning at start-up: a bare number other than zero (read as milliseconds,
 * which {@code leaseTime = "5"} rarely means) and a {@code leaseTime} under one second
 * (an explicit lease is never renewed, and one so short may end while the method still
 * runs).
 *
 * @param waitTime the wait, or {@code null} when the annotation names none
 * @param leaseTime the lease, or {@code null} when the annotation names none
 * @param holdAtLeast the minimum hold, or {@code null} when the annotation names none
 * @param warnings what to warn about, one sentence per attribute; empty when nothing
 * @author setnx-lock authors
 */
record LockDurations(Duration waitTime, Duration leaseTime, Duration holdAtLeast, List<String> warnings) {

	private static final Duration SHORT_LEASE = Duration.ofSeconds(1);

	/**
	 * Read the durations of an annotation.
	 * @param annotation the annotation
	 * @param placeholders resolves {@code ${...}} in the attributes
	 * @return the durations
	 * @throws IllegalArgumentException naming the attribute and its text when one is not
	 * a duration, is negative, or is not a valid lease
	 */
	static LockDurations read(DistributedLock annotation, UnaryOperator<String> placeholders) {
		List<String> warnings = new ArrayList<>();
		Duration waitTime = read("waitTime", annotation.waitTime(), placeholders, warnings);
		Duration leaseTime = checkLease(read("leaseTime", annotation.leaseTime(), placeholders, warnings), "leaseTime");
		Duration minimumHold = read("holdAtLeast", annotation.holdAtLeast(), placeholders, warnings);
		// Zero holds nothing past the method's end: the same as no minimum.
		Duration holdAtLeast = (minimumHold == null || minimumHold.isZero()) ? null
				: checkLease(minimumHold, "holdAtLeast");
		return new LockDurations(waitTime, leaseTime, holdAtLeast, List.copyOf(warnings));
	}

	private static Duration read(String attribute, String written, UnaryOperator<String> placeholders,
			List<String> warnings) {
		String text = placeholders.apply(written);
		Duration duration = DurationText.parse(text, attribute);
		if (duration == null) {
			return null;
		}
		String shown = attribute + " = \"" + written + "\""
				+ (written.equals(text) ? "" : " (resolved to \"" + text.trim() + "\")");
		if (DurationText.isBareNumber(text) && !duration.isZero()) {
			long millis = duration.toMillis();
			warnings.add(shown + " is " + millis + " ms; write \"" + millis + "ms\" or \"" + millis + "s\"");
		}
		else if (attribute.equals("leaseTime") && duration.compareTo(SHORT_LEASE) < 0) {
			warnings.add(shown + " is under 1s, and a lease the annotation names is never renewed,"
					+ " so the lock may end while the method still runs");
		}
		return duration;
	}

	private static Duration checkLease(Duration duration, String attribute) {
		return (duration != null) ? LeaseLimits.check(attribute, duration) : null;
	}

}
