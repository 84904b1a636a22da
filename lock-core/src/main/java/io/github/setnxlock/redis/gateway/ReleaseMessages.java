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
package io.github.setnxlock.redis.gateway;

/**
 * Where release messages come from: the subscription of one Redis
 * ({@link RedisGateway#subscribe}), or all those of the nodes of Redlock. Internal API.
 *
 * @author setnx-lock authors
 */
public interface ReleaseMessages extends AutoCloseable {

	/**
	 * Whether release messages are being received, so that a waiter may rely on them.
	 * Subscribes, in the background, on the first call.
	 * @return {@code true} while subscribed
	 */
	boolean isListening();

	/**
	 * Whether release messages are being received, without subscribing.
	 * @return {@code true} while subscribed
	 */
	boolean listening();

	/**
	 * Whether a subscription was asked for, by the first {@link #isListening()}.
	 * @return {@code true} once a subscription was asked for
	 */
	boolean requested();

	/**
	 * Stop receiving messages.
	 */
	@Override
	void close();

	/**
	 * Return the keyspace notification pattern of every lock key with the given prefix,
	 * the prefix's glob characters escaped.
	 * @param keyPrefix the key prefix
	 * @return the pattern
	 */
	public static String keyspacePattern(String keyPrefix) {
		StringBuilder pattern = new StringBuilder("__keyspace@*__:");
		for (char c : keyPrefix.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append('*').toString();
	}

}
