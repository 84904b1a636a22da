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
package io.github.setnxlock.redis.engine;

import java.time.Duration;

/**
 * What the {@link LockEngine} is told once, when it is made. Internal API.
 *
 * @param leaseTime the lease of a hold taken without one of its own, resolved once
 * @param renewal whether such holds are renewed while held
 * @param maxHold how long renewals go on at most, or {@code null} for no limit
 * @param releaseChannel the channel releases are announced on
 * @param keyspacePattern the keyspace notification pattern of the lock keys, or
 * {@code null} not to listen to them
 * @param protocol the protocol's name, for observations
 * @param localHandoff whether a release passes the key to a waiter of this engine without
 * a round trip (see {@link LocalHandoff})
 * @param maxLocalHandoffs how many local hand-offs at most once another registry's waiter
 * is known
 * @param maxLocalHandoffTime how long local hand-offs go on at most once another
 * registry's waiter is known
 * @param holderPrefix the process's part of the holder named in owner tokens (see
 * {@link OwnerTokens}), or {@code null} to name none
 * @author setnx-lock authors
 */
public record EngineSettings(Duration leaseTime, boolean renewal, Duration maxHold, String releaseChannel,
		String keyspacePattern, String protocol, boolean localHandoff, int maxLocalHandoffs,
		Duration maxLocalHandoffTime, String holderPrefix) {

}
