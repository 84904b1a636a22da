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

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Warns at start-up when the Redis client's command timeout is not shorter than the lock
 * lease. A renewal that Redis does not answer then fails only after the lease has ended,
 * so a holder cut off from a stalled Redis cannot tell that from a lost lock in time, and
 * waits longer than its lease for an answer. Spring Boot leaves
 * {@code spring.data.redis.timeout} unset, and Lettuce then waits a minute: set it to a
 * few seconds. When the timeout already is a few seconds, the lease is what is too short,
 * and the warning says so. Only Lettuce's timeout is read; other clients are not checked.
 *
 * @author setnx-lock authors
 */
final class CommandTimeoutCheck {

	private static final Log logger = LogFactory.getLog(CommandTimeoutCheck.class);

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			CommandTimeoutCheck.class.getClassLoader());

	/**
	 * The longest command timeout taken as meant: beyond it the timeout is what to
	 * shorten, within it the lease is what to lengthen.
	 */
	private static final Duration FEW_SECONDS = Duration.ofSeconds(10);

	private CommandTimeoutCheck() {
	}

	/**
	 * Log a warning if the factory's command timeout is not shorter than the lease.
	 * @param connectionFactory the registry's connection factory
	 * @param lease the registry's lease
	 * @return whether it warned
	 */
	static boolean warnIfNotShorter(RedisConnectionFactory connectionFactory, Duration lease) {
		if (!LETTUCE_PRESENT || !(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
			return false;
		}
		Duration timeout = lettuce.getClientConfiguration().getCommandTimeout();
		if (timeout == null || timeout.compareTo(lease) < 0) {
			return false;
		}
		String advice = (timeout.compareTo(FEW_SECONDS) <= 0)
				? "Set setnx.lock.lease-time well above the command timeout, such as 30s (a bare number is"
						+ " milliseconds)."
				: "Set spring.data.redis.timeout to a few seconds.";
		logger.warn("The Redis command timeout (" + timeout + ", spring.data.redis.timeout) is not shorter than the"
				+ " lock lease (" + lease + ", setnx.lock.lease-time): a renewal Redis does not answer fails only"
				+ " after the lease ended. " + advice);
		return true;
	}

}
