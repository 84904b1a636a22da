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

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import io.github.setnxlock.redis.operator.LockOperations;

/**
 * The {@code locks} endpoint with a delete operation that releases a lock whoever holds
 * it (see {@link LockOperations#forceRelease(String)}): audited in the log, and it moves
 * the fencing counter past the holder's token. Only there with
 * {@code setnx.lock.endpoint.force-release.enabled=true}; secure the endpoint first.
 *
 * @author setnx-lock authors
 */
@Endpoint(id = "locks")
public class ForceReleasingLocksEndpoint extends LocksEndpoint {

	/**
	 * Create the endpoint.
	 * @param operations the operator API of the locks
	 */
	public ForceReleasingLocksEndpoint(LockOperations operations) {
		super(operations);
	}

	/**
	 * Release a lock whoever holds it.
	 * @param key the lock's key, without the registry's prefix
	 * @return whether a lock was there to release
	 */
	@DeleteOperation
	public ForceRelease release(@Selector String key) {
		return new ForceRelease(key, operations().forceRelease(key));
	}

	/**
	 * The outcome of a force release.
	 *
	 * @param key the lock's key
	 * @param released whether a lock was there to release
	 */
	public record ForceRelease(String key, boolean released) {

	}

}
