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
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

import io.github.setnxlock.redis.operator.HeldLock;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.operator.LockState;
import io.github.setnxlock.redis.operator.RedisLocks;

/**
 * The actuator endpoint {@code locks}: a read lists the locks this instance holds and the
 * locks held in Redis by every instance (with who holds each, from a bounded {@code SCAN}
 * of the key prefix), and a read with a key gives that lock's state in Redis. Owner
 * tokens' secret parts are never shown.
 * <p>
 * A delete with a key releases that lock whoever holds it (see
 * {@link LockOperations#forceRelease(String)}). Spring Boot's endpoint access decides
 * whether it is offered: the endpoint's default access is {@link Access#READ_ONLY
 * read-only}, so the delete operation is there only with
 * {@code management.endpoint.locks.access=unrestricted} (and a
 * {@code management.endpoints.access.max-permitted} that allows it). Secure the endpoint
 * before allowing it.
 * <p>
 * A key is the rest of the path after {@code /actuator/locks/}, slashes included
 * ({@code /actuator/locks/reports/2026/11} is the key {@code reports/2026/11}). Keys are
 * given without the registry's prefix; one given with it ({@code lock:orders:42} for the
 * key {@code orders:42}) is taken without it when no lock has the key as given, so the
 * Redis key an operator copies from {@code redis-cli} works too for reads. The answer's
 * {@code redisKey} says which key was read. A force release never guesses: it releases
 * the key as given, and when that held nothing and began with the prefix, its answer says
 * which key was meant.
 *
 * @author setnx-lock authors
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class LocksEndpoint {

	private final LockOperations operations;

	private final int scanLimit;

	/**
	 * Create the endpoint, listing at most 100 locks from Redis.
	 * @param operations the operator API of the locks
	 */
	public LocksEndpoint(LockOperations operations) {
		this(operations, 100);
	}

	/**
	 * Create the endpoint.
	 * @param operations the operator API of the locks
	 * @param scanLimit the most locks to list from Redis
	 */
	public LocksEndpoint(LockOperations operations, int scanLimit) {
		this.operations = operations;
		this.scanLimit = scanLimit;
	}

	/**
	 * Return the locks this instance holds, and the locks held in Redis under the key
	 * prefix by any instance, with who holds each.
	 * @return the held locks
	 */
	@ReadOperation
	public HeldLocks locks() {
		RedisLocks inRedis;
		try {
			inRedis = this.operations.heldInRedis(this.scanLimit);
		}
		catch (RuntimeException ex) {
			// This instance's own holds are answered locally: Redis must not take them
			// away.
			inRedis = new RedisLocks(List.of(), false, "Redis could not be read: " + ex.getMessage());
		}
		return new HeldLocks(this.operations.heldLocks(), inRedis);
	}

	/**
	 * Return a lock's state in Redis.
	 * @param key the lock's key, without the registry's prefix, split at its slashes
	 * @return its state
	 */
	@ReadOperation
	public LockState lock(@Selector(match = Match.ALL_REMAINING) String... key) {
		return inspect(String.join("/", key));
	}

	/**
	 * Release a lock whoever holds it: audited in the log, and the fencing counter moves
	 * past the holder's token. Offered only with unrestricted access to the endpoint.
	 * @param key the lock's key, without the registry's prefix, split at its slashes
	 * @return whether a lock was there to release
	 */
	@DeleteOperation
	public ForceRelease release(@Selector(match = Match.ALL_REMAINING) String... key) {
		String given = String.join("/", key);
		boolean released = this.operations.forceRelease(given);
		String prefix = this.operations.keyPrefix();
		if (released || prefix.isEmpty() || !given.startsWith(prefix) || given.substring(prefix.length()).isBlank()) {
			return new ForceRelease(given, released, null);
		}
		// Never guess on a release: it would end another lock's hold. Say which key the
		// operator may have meant.
		return new ForceRelease(given, false, "No lock had the key '" + given + "'. Keys are given without the prefix '"
				+ prefix + "': the lock of Redis key '" + given + "' is '" + given.substring(prefix.length()) + "'.");
	}

	/**
	 * Read the lock of the key as given or, when it starts with the prefix and holds no
	 * lock, of the key without the prefix if that one is held: for reads only.
	 */
	private LockState inspect(String key) {
		LockState asGiven = this.operations.inspect(key);
		String prefix = this.operations.keyPrefix();
		if (asGiven.held() || prefix.isEmpty() || !key.startsWith(prefix) || key.substring(prefix.length()).isBlank()) {
			return asGiven;
		}
		LockState unprefixed = this.operations.inspect(key.substring(prefix.length()));
		return unprefixed.held() ? unprefixed : asGiven;
	}

	/**
	 * The locks this instance holds, and those held in Redis by any instance.
	 *
	 * @param held this instance's holds, oldest first
	 * @param inRedis the locks held in Redis under the key prefix, by any instance
	 */
	public record HeldLocks(List<HeldLock> held, RedisLocks inRedis) {

	}

	/**
	 * The outcome of a force release.
	 *
	 * @param key the lock's key
	 * @param released whether a lock was there to release
	 * @param note what the operator may have meant when nothing was released and the key
	 * began with the prefix, else {@code null}
	 */
	public record ForceRelease(String key, boolean released, String note) {

	}

}
