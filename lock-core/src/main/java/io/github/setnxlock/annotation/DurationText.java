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
import java.util.regex.Pattern;

import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Reads the durations of {@link DistributedLock} attributes with Spring Framework's
 * duration parsing: simple ({@code 300ms}, {@code 5s}, {@code 2m}, {@code 1h},
 * {@code 1d}, also {@code ns} and {@code us}; a bare number is milliseconds), composite
 * ({@code 1h30m}) or ISO-8601 ({@code PT5S}). Spring Boot's binding of properties takes
 * the simple and ISO-8601 forms only, so a composite duration works in an attribute (or a
 * placeholder it names) but not in a {@code setnx.lock.*} property.
 *
 * @author setnx-lock authors
 */
final class DurationText {

	private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

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
