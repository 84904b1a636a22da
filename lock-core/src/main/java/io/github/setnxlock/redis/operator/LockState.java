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
package io.github.setnxlock.redis.operator;

/**
 * A lock's state in Redis, as {@link LockOperations#inspect(String)} reads it.
 *
 * @param key the lock's key, without the registry's prefix
 * @param redisKey the lock key in Redis
 * @param protocol the registry's protocol
 * @param held whether the lock key exists
 * @param type the Redis type of the key, {@code none} when there is none
 * @param ttlMillis the key's time to live in ms; {@code -1} without one, {@code -2}
 * without a key
 * @param timestamp under the timestamp protocol, the stored value; otherwise
 * {@code null}, as an owner token is never shown
 * @param heldHere whether an owner in this JVM holds it through this registry
 * @param nodes on how many Redis masters the lock key was found: 0 or 1 on a single
 * Redis; under Redlock, the nodes holding the majority's owner token (0 when no owner
 * holds a majority)
 * @param holder who holds the lock, as its owner token names it
 * ({@code [application@]host/pid/thread}), or {@code null} when it names none: a registry
 * told not to name its holders, another client of the key, no lock
 * @author setnx-lock authors
 */
public record LockState(String key, String redisKey, String protocol, boolean held, String type, long ttlMillis,
		String timestamp, boolean heldHere, int nodes, String holder) {

}
