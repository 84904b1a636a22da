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

package io.github.setnxlock.redis.protocol;

/**
 * The mark a waiter leaves on a held key under the token protocol (single Redis and
 * Redlock alike): a {@code !} after the holder's token, so that the holder's release is
 * announced. The Lua scripts write and read the same mark; the Java side reads it here
 * only.
 *
 * @author setnx-lock authors
 */
public final class WaiterMark {

	private static final String MARK = "!";

	private WaiterMark() {
	}

	/**
	 * Return what a key holds once a waiter has marked the given token.
	 * @param token the holder's owner token
	 * @return the marked value
	 */
	public static String on(String token) {
		return token + MARK;
	}

	/**
	 * Return the owner token a key's value names, marked or not.
	 * @param value the value, or {@code null}
	 * @return the value without a waiter's mark, or {@code null}
	 */
	public static String removedFrom(String value) {
		return (value != null && value.endsWith(MARK)) ? value.substring(0, value.length() - MARK.length()) : value;
	}

}
