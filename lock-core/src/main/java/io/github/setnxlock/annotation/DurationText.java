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
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the durations of {@link DistributedLock} attributes: Spring Boot's simple format
 * ({@code 300ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d}, also {@code ns} and
 * {@code us}; a bare number is milliseconds) or ISO-8601 ({@code PT5S}).
 *
 * @author setnx-lock authors
 */
final class DurationText {

	private static final Pattern SIMPLE = Pattern.compile("^([+-]?\\d+)([a-zA-Z]{0,2})$");

	private DurationText() {
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
		Duration duration = parseTrimmed(trimmed, attribute);
		if (duration.isNegative()) {
			throw new IllegalArgumentException(attribute + " must not be negative, but was '" + text + "'");
		}
		return duration;
	}

	private static Duration parseTrimmed(String text, String attribute) {
		Matcher simple = SIMPLE.matcher(text);
		if (simple.matches()) {
			long amount;
			try {
				amount = Long.parseLong(simple.group(1));
			}
			catch (NumberFormatException ex) {
				throw invalid(text, attribute);
			}
			return switch (simple.group(2).toLowerCase(Locale.ROOT)) {
				case "ns" -> Duration.ofNanos(amount);
				case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000));
				case "", "ms" -> Duration.ofMillis(amount);
				case "s" -> Duration.ofSeconds(amount);
				case "m" -> Duration.ofMinutes(amount);
				case "h" -> Duration.ofHours(amount);
				case "d" -> Duration.ofDays(amount);
				default -> throw invalid(text, attribute);
			};
		}
		try {
			return Duration.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw invalid(text, attribute);
		}
	}

	private static IllegalArgumentException invalid(String text, String attribute) {
		return new IllegalArgumentException(
				attribute + " must be a duration such as '500ms', '5s' or 'PT5S', but was '" + text + "'");
	}

}
