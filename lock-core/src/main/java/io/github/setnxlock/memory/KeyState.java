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
package io.github.setnxlock.memory;

import java.util.ArrayDeque;

/**
 * What a {@link LockSpace} knows of one key: its holder, and who waits for it. Guarded by
 * the space's monitor.
 *
 * @author setnx-lock authors
 */
final class KeyState {

	/** The last hold taken; the key is free once it is released or its lease ended. */
	MemoryHold holder;

	int threadWaiters;

	final ArrayDeque<AsyncWaiter> asyncWaiters = new ArrayDeque<>();

	boolean isFree(long nowNanos) {
		return this.holder == null || !this.holder.isHeld(nowNanos);
	}

}
