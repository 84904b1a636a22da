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

import java.time.DateTimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

import io.github.setnxlock.LeaseLimits;

/**
 * The durations of a {@link DistributedLock}, read and checked, with what about them
 * deserves a warning at start-up. They are read with Spring Framework's duration parsing:
 * simple ({@code 300ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d}, also {@code ns}
 * and {@code us}; a bare number is milliseconds), composite ({@code 1h30m}) or ISO-8601
 * ({@code PT5S}). Spring Boot's binding of properties takes the simple and ISO-8601 forms
 * only, so a composite duration works in an attribute (or a placeholder it names) but not
 * in a {@code setnx.lock.*} property. The warnings: a bare number other than zero (read
 * as milliseconds, which {@code leaseTime = "5"} rarely means) and a {@code leaseTime}
 * under one second (an explicit lease is never renewed, and one so short may end while
 * the method still runs).
 *
 * @param waitTime the wait, or {@code null} when the annotation names none
 * @param leaseTime the lease, or {@code null} when the annotation names none
 * @param holdAtLeast the minimum hold, or {@code null} when the annotation names none
 * @param warnings what to warn about, one sentence per attribute; empty when nothing
 * @author setnx-lock authors
 */
record LockDurations(Duration waitTime, Duration leaseTime, Duration holdAtLeast, List<String> warnings) {

	private static final Duration SHORT_LEASE = Duration.ofSeconds(1);

	private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

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
		Duration duration = parse(text, attribute);
		if (duration == null) {
			return null;
		}
		String shown = attribute + " = \"" + written + "\""
				+ (written.equals(text) ? "" : " (resolved to \"" + text.trim() + "\")");
		if (isBareNumber(text) && !duration.isZero()) {
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

	/**
	 * Parse a duration attribute.
	 * @param text the attribute's value, placeholders resolved
	 * @param attribute the attribute's name, for the error message
	 * @return the duration, or {@code null} when the text is empty
	 * @throws IllegalArgumentException if the text is not a duration or is negative
	 */
	static Duration parse(String text, String attribute) {
		String trimmed = text.trim();
		if (trimmed.isEmpty()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(trimmed, DurationFormat.Unit.MILLIS);
		}
		catch (IllegalArgumentException | DateTimeException | ArithmeticException ex) {
			throw new IllegalArgumentException(
					attribute + " must be a duration such as '500ms', '5s' or 'PT5S', but was '" + text + "'", ex);
		}
		if (duration.isNegative()) {
			throw new IllegalArgumentException(attribute + " must not be negative, but was '" + text + "'");
		}
		return duration;
	}

	/**
	 * Whether a duration is written as a number without a unit, which is read as
	 * milliseconds.
	 * @param text the attribute's value, placeholders resolved
	 * @return {@code true} for a bare number
	 */
	static boolean isBareNumber(String text) {
		return BARE_NUMBER.matcher(text.trim()).matches();
	}

}
