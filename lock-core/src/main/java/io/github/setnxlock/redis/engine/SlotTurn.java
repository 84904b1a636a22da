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

import io.github.setnxlock.redis.protocol.Lease;

/**
 * What an owner is granted with a key's slot: after a release in Redis, the release to
 * wait for; after a local hand-off, the key itself (see {@link LocalHandoff}).
 *
 * @param generation the release generation noted before that release, whose message the
 * new owner waits for; {@link KeyState#NOT_ANNOUNCED} when the release was not announced
 * @param yieldTurn whether the new owner lets a waiter of another registry go first (see
 * {@link AcquireLoop#YIELD_NANOS})
 * @param handedLease the lease of the key handed over locally, or {@code null} when the
 * owner must ask Redis
 * @author setnx-lock authors
 */
record SlotTurn(long generation, boolean yieldTurn, Lease handedLease) {

	/** A slot granted with nothing to wait for and nothing handed over. */
	static final SlotTurn NONE = new SlotTurn(KeyState.NOT_ANNOUNCED, false, null);

	boolean announced() {
		return this.generation != KeyState.NOT_ANNOUNCED;
	}

}
