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

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the series selectors and grouping labels of a PromQL expression, enough to check
 * a dashboard's and a rule file's queries against a scrape: the metric names selected,
 * their label matchers, and the labels of {@code by}, {@code without}, {@code on},
 * {@code ignoring} and {@code group_left}/{@code group_right}. Ranges, durations, numbers
 * and strings outside selectors are skipped; Grafana's variables may stand in ranges and
 * matcher values.
 *
 * @author setnx-lock authors
 */
final class PromQl {

	private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "sum", "min", "max",
			"avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk", "quantile", "atan2");

	private PromQl() {
	}

	static Query read(String expr) {
		List<Selector> selectors = new ArrayList<>();
		Set<String> grouping = new LinkedHashSet<>();
		int i = 0;
		while (i < expr.length()) {
			char c = expr.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				i = skipString(expr, i);
			}
			else if (c == '[') {
				i = expr.indexOf(']', i) + 1;
			}
			else if (c == '{') {
				throw new IllegalArgumentException("A selector without a metric name in: " + expr);
			}
			else if (Character.isDigit(c)) {
				while (i < expr.length() && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.')) {
					i++;
				}
			}
			else if (Character.isLetter(c) || c == '_' || c == ':') {
				int start = i;
				while (i < expr.length() && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_'
						|| expr.charAt(i) == ':')) {
					i++;
				}
				String word = expr.substring(start, i);
				int next = skipSpaces(expr, i);
				char following = (next < expr.length()) ? expr.charAt(next) : ' ';
				if (GROUPING.contains(word) && following == '(') {
					int end = expr.indexOf(')', next);
					for (String label : expr.substring(next + 1, end).split(",")) {
						if (!label.isBlank()) {
							grouping.add(label.trim());
						}
					}
					i = end + 1;
				}
				else if (following != '(' && !KEYWORDS.contains(word) && !GROUPING.contains(word)) {
					List<Matcher> matchers = new ArrayList<>();
					if (following == '{') {
						i = readMatchers(expr, next + 1,
								(label, op, value) -> matchers.add(new Matcher(label, op, value)));
					}
					selectors.add(new Selector(word, matchers));
				}
			}
			else {
				i++;
			}
		}
		return new Query(selectors, grouping);
	}

	/**
	 * Read the label matchers of a selector, or the labels of a sample in Prometheus's
	 * text format, which are written alike.
	 * @param text the text
	 * @param from the index after the opening brace
	 * @param sink told each matcher
	 * @return the index after the closing brace
	 */
	static int readMatchers(String text, int from, MatcherSink sink) {
		int i = skipSpaces(text, from);
		while (text.charAt(i) != '}') {
			int start = i;
			while (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_') {
				i++;
			}
			String label = text.substring(start, i);
			i = skipSpaces(text, i);
			int opStart = i;
			while ("=!~".indexOf(text.charAt(i)) >= 0) {
				i++;
			}
			String op = text.substring(opStart, i);
			i = skipSpaces(text, i);
			int end = skipString(text, i);
			sink.accept(label, op, unescape(text.substring(i + 1, end - 1)));
			i = skipSpaces(text, end);
			if (text.charAt(i) == ',') {
				i = skipSpaces(text, i + 1);
			}
		}
		return i + 1;
	}

	private static int skipString(String text, int at) {
		char quote = text.charAt(at);
		int i = at + 1;
		while (text.charAt(i) != quote) {
			i += (text.charAt(i) == '\\' && quote != '`') ? 2 : 1;
		}
		return i + 1;
	}

	private static String unescape(String value) {
		StringBuilder unescaped = new StringBuilder(value.length());
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '\\' && i + 1 < value.length()) {
				char escaped = value.charAt(++i);
				unescaped.append((escaped == 'n') ? '\n' : escaped);
			}
			else {
				unescaped.append(c);
			}
		}
		return unescaped.toString();
	}

	private static int skipSpaces(String text, int from) {
		int i = from;
		while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
			i++;
		}
		return i;
	}

	/**
	 * What a query reads: its selectors, and the labels it groups or matches by.
	 */
	record Query(List<Selector> selectors, Set<String> grouping) {

	}

	/**
	 * A series selector: a metric name and its label matchers.
	 */
	record Selector(String metric, List<Matcher> matchers) {

	}

	/**
	 * A label matcher: label, operator ({@code =}, {@code !=}, {@code =~}, {@code !~})
	 * and value.
	 */
	record Matcher(String label, String op, String value) {

	}

	/**
	 * Told each label matcher read.
	 */
	interface MatcherSink {

		void accept(String label, String op, String value);

	}

}
