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
import java.util.Map;

import io.github.setnxlock.annotation.LockTimings;

/**
 * {@link LockTimings} from {@link SetnxLockProperties}: a lock's own settings first, then
 * the annotation, then {@code setnx.lock.wait-time} and the registry's lease.
 *
 * @author setnx-lock authors
 */
final class PropertiesLockTimings implements LockTimings {

	private final Duration defaultWait;

	private final Map<String, LockProperties> locks;

	PropertiesLockTimings(Duration defaultWait, Map<String, LockProperties> locks) {
		this.defaultWait = defaultWait;
		this.locks = Map.copyOf(locks);
	}

	@Override
	public Duration waitTime(String name, Duration annotated) {
		LockProperties lock = this.locks.get(name);
		if (lock != null && lock.getWaitTime() != null) {
			return lock.getWaitTime();
		}
		return (annotated != null) ? annotated : this.defaultWait;
	}

	@Override
	public Duration leaseTime(String name, Duration annotated) {
		LockProperties lock = this.locks.get(name);
		if (lock != null && lock.getLeaseTime() != null) {
			return lock.getLeaseTime();
		}
		return annotated;
	}

}
