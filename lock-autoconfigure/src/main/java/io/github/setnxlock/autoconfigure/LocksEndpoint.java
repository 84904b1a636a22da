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

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import io.github.setnxlock.redis.operator.HeldLock;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.operator.LockState;

/**
 * The actuator endpoint {@code locks}: a read lists the locks this instance holds, and a
 * read with a key gives that lock's state in Redis. Owner tokens are never shown.
 * <p>
 * A delete with a key releases that lock whoever holds it (see
 * {@link LockOperations#forceRelease(String)}). Spring Boot's endpoint access decides
 * whether it is offered: the endpoint's default access is {@link Access#READ_ONLY
 * read-only}, so the delete operation is there only with
 * {@code management.endpoint.locks.access=unrestricted} (and a
 * {@code management.endpoints.access.max-permitted} that allows it). Secure the endpoint
 * before allowing it.
 *
 * @author setnx-lock authors
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
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
	 * Release a lock whoever holds it: audited in the log, and the fencing counter moves
	 * past the holder's token. Offered only with unrestricted access to the endpoint.
	 * @param key the lock's key, without the registry's prefix
	 * @return whether a lock was there to release
	 */
	@DeleteOperation
	public ForceRelease release(@Selector String key) {
		return new ForceRelease(key, this.operations.forceRelease(key));
	}

	/**
	 * The locks this instance holds.
	 *
	 * @param held the holds, oldest first
	 */
	public record HeldLocks(List<HeldLock> held) {

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
