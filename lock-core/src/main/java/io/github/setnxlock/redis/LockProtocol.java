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

/**
 * How a {@link SetnxLockRegistry} keeps its locks in Redis.
 *
 * @author setnx-lock authors
 */
public enum LockProtocol {

	/**
	 * The lock key holds a random owner token and expires with the lease
	 * ({@code SET key token NX PX lease}); release deletes it only if the token is still
	 * ours. No client clock is involved. The default.
	 */
	TOKEN,

	/**
	 * The lock key holds the Unix time at which the lock stops being valid, as in the
	 * locking pattern of the Redis {@code SETNX} documentation, so clients of that
	 * pattern in any language can share the locks. An expired timestamp is taken over
	 * atomically.
	 */
	TIMESTAMP

}
