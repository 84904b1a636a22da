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

import java.time.Duration;

/**
 * A hold in this JVM, as {@link LockOperations#heldLocks()} shows it.
 *
 * @param key the lock's key, without the registry's prefix
 * @param name the lock's logical name, empty when it has none
 * @param thread the name of the holding thread; for an asynchronous hold, which no thread
 * holds, {@code async (from <name of the thread that asked for it>)}
 * @param heldFor how long it has been held
 * @param leaseLeft how long its lease has left, as the holder counts it
 * @param fencingToken its fencing token, {@code 0} until its holder asks for one
 * @param renewed whether its lease is renewed while held
 * @param renewals how many times its lease was renewed
 * @param lost whether it was lost (its holder still owes an unlock or release)
 * @param nodes on how many Redis masters the lock key is known to live: 1 on a single
 * Redis; under Redlock, the nodes that took or last extended it
 * @author setnx-lock authors
 */
public record HeldLock(String key, String name, String thread, Duration heldFor, Duration leaseLeft, long fencingToken,
		boolean renewed, int renewals, boolean lost, int nodes) {

}
