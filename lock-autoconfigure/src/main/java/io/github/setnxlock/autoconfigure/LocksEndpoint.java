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

import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import io.github.setnxlock.redis.operator.HeldLock;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.operator.LockState;

/**
 * The actuator endpoint {@code locks}: a read lists the locks this instance holds, and a
 * read with a key gives that lock's state in Redis. Owner tokens are never shown. The
 * force-release operation lives in {@link ForceReleasingLocksEndpoint}, which replaces
 * this one only when {@code setnx.lock.endpoint.force-release.enabled=true}.
 *
 * @author setnx-lock authors
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

	private final LockOperations operations;

	/**
	 * Create the endpoint.
	 * @param operations the operator API of the locks
	 */
	public LocksEndpoint(LockOperations operations) {
		this.operations = operations;
	}

	/**
	 * Return the locks this instance holds.
	 * @return the held locks
	 */
	@ReadOperation
	public HeldLocks locks() {
		return new HeldLocks(this.operations.heldLocks());
	}

	/**
	 * Return a lock's state in Redis.
	 * @param key the lock's key, without the registry's prefix
	 * @return its state
	 */
	@ReadOperation
	public LockState lock(@Selector String key) {
		return this.operations.inspect(key);
	}

	/**
	 * Return the operator API of the locks, for subclasses that add operations.
	 * @return the operations this endpoint was created with
	 */
	protected LockOperations operations() {
		return this.operations;
	}

	/**
	 * The locks this instance holds.
	 *
	 * @param held the holds, oldest first
	 */
	public record HeldLocks(List<HeldLock> held) {

	}

}
