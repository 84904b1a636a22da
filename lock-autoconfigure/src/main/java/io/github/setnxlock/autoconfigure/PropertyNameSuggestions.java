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

import java.util.StringJoiner;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

/**
 * Says what is wrong with a {@code setnx.lock} name that binds to no property, and which
 * property was probably meant: the closest one within a few typing mistakes, else one
 * with the same last part in another group (such as {@code setnx.lock.max-hold} for
 * {@code setnx.lock.renewal.max-hold}).
 *
 * @author setnx-lock authors
 */
final class PropertyNameSuggestions {

	private static final int MAX_EDITS = 3;

	private static final String ANY_LOCK = "*";

	private PropertyNameSuggestions() {
	}

	/**
	 * Return the warning for a name that binds to no property.
	 * @param name the name, under {@code setnx.lock}
	 * @return the warning, naming the property probably meant if there is one
	 */
	static String unbound(ConfigurationPropertyName name) {
		int lockName = SetnxLockPropertyNames.LOCKS.getNumberOfElements();
		int leaf = name.getNumberOfElements() - 1;
		if (SetnxLockPropertyNames.LOCKS.isAncestorOf(name) && leaf - lockName > 1) {
			// Spring Boot cannot tell where a lock name with dots ends, and binds
			// nothing.
			StringJoiner written = new StringJoiner(".");
			for (int i = lockName; i < leaf; i++) {
				written.add(name.getElement(i, Form.ORIGINAL));
			}
			return name + " is not bound: write a lock name with dots in brackets, such as setnx.lock.locks[" + written
					+ "]." + name.getElement(leaf, Form.ORIGINAL);
		}
		String suggestion = suggestion(name);
		return name + " is not a setnx-lock property and is ignored"
				+ ((suggestion != null) ? "; did you mean " + suggestion + "?" : "");
	}

	private static String suggestion(ConfigurationPropertyName name) {
		String written = pattern(name);
		String lastWritten = name.getLastElement(Form.UNIFORM);
		String closest = null;
		int closestEdits = Integer.MAX_VALUE;
		String sameLast = null;
		int sameLastEdits = Integer.MAX_VALUE;
		for (String property : SetnxLockPropertyNames.types().keySet()) {
			ConfigurationPropertyName known = ConfigurationPropertyName.of(property);
			int edits = edits(written, pattern(known));
			if (edits < closestEdits) {
				closest = property;
				closestEdits = edits;
			}
			if (known.getLastElement(Form.UNIFORM).equals(lastWritten) && edits < sameLastEdits) {
				sameLast = property;
				sameLastEdits = edits;
			}
		}
		String meant = (closestEdits <= MAX_EDITS) ? closest : sameLast;
		if (meant == null) {
			return null;
		}
		boolean perLock = SetnxLockPropertyNames.LOCKS.isAncestorOf(name)
				&& name.getNumberOfElements() > SetnxLockPropertyNames.LOCKS.getNumberOfElements();
		String lock = perLock ? name.getElement(SetnxLockPropertyNames.LOCKS.getNumberOfElements(), Form.ORIGINAL)
				: ANY_LOCK;
		return meant.replace(SetnxLockPropertyNames.ANY_LOCK, "[" + lock + "]");
	}

	/**
	 * Return a name in dashed form with the lock's name of a per-lock entry written as
	 * {@code *}, so that names of different locks compare alike.
	 */
	private static String pattern(ConfigurationPropertyName name) {
		StringJoiner pattern = new StringJoiner(".");
		int lockName = SetnxLockPropertyNames.LOCKS.getNumberOfElements();
		boolean perLock = SetnxLockPropertyNames.LOCKS.isAncestorOf(name);
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			pattern.add((perLock && i == lockName) ? ANY_LOCK : name.getElement(i, Form.DASHED));
		}
		return pattern.toString();
	}

	/**
	 * Return the Levenshtein distance: how many characters must be inserted, deleted or
	 * replaced to turn one text into the other.
	 */
	static int edits(String from, String to) {
		int[] previous = new int[to.length() + 1];
		int[] current = new int[to.length() + 1];
		for (int j = 0; j <= to.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= from.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= to.length(); j++) {
				int replace = previous[j - 1] + ((from.charAt(i - 1) == to.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[to.length()];
	}

}
