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
package io.github.setnxlock.redis;

import java.time.Duration;
import java.util.Objects;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * The checks of the values of {@link SetnxLockSettings}, run as each is set, so that a
 * bad one fails with a message that names the setting rather than surfacing later inside
 * a lock call.
 *
 * @author setnx-lock authors
 */
final class SettingChecks {

	private SettingChecks() {
	}

	static String keyPrefix(String keyPrefix) {
		Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
		return LockKey.checkWellFormed("keyPrefix", keyPrefix);
	}

	static Duration maxHold(Duration maxHold) {
		return (maxHold != null) ? LeaseLimits.check("maxHold", maxHold) : null;
	}

	static String releaseChannel(String releaseChannel) {
		if (releaseChannel == null || releaseChannel.isBlank()) {
			throw new IllegalArgumentException("releaseChannel must not be blank, but was '" + releaseChannel + "'");
		}
		return releaseChannel;
	}

	static int replicationGuardReplicas(int replicas) {
		if (replicas < 0) {
			throw new IllegalArgumentException("replicationGuard replicas must not be negative, but was " + replicas);
		}
		return replicas;
	}

	static Duration replicationGuardTimeout(Duration timeout) {
		if (timeout == null) {
			throw new IllegalArgumentException("replicationGuard timeout must not be null");
		}
		if (timeout.isNegative() || timeout.toMillis() < 1) {
			// WAIT with a timeout of 0 waits forever, so zero is refused too.
			throw new IllegalArgumentException("replicationGuard timeout must be at least 1ms, but was " + timeout);
		}
		return timeout;
	}

	static Duration nodeTimeout(Duration nodeTimeout) {
		if (nodeTimeout == null) {
			throw new IllegalArgumentException("nodeTimeout must not be null");
		}
		if (nodeTimeout.isNegative() || nodeTimeout.toMillis() < 1
				|| nodeTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
			throw new IllegalArgumentException("nodeTimeout must be between 1ms and 1 minute, but was " + nodeTimeout);
		}
		return nodeTimeout;
	}

	/**
	 * Zero turns the check of restarts off, and {@code null} stands for the lease time.
	 */
	static Duration restartDelay(Duration restartDelay) {
		return (restartDelay == null || restartDelay.isZero()) ? restartDelay
				: LeaseLimits.check("restartDelay", restartDelay);
	}

	static String applicationName(String applicationName) {
		return (applicationName != null && !applicationName.isBlank()) ? applicationName.trim() : null;
	}

}
