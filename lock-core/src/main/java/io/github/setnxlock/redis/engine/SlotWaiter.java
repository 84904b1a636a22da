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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * One in a slot's line: a claim, what it needs to wait without a thread, and whether it
 * takes a local hand-off. Its fields are guarded by {@link Slot}'s mutex.
 *
 * @author setnx-lock authors
 */
final class SlotWaiter {

	final boolean takesHandoff;

	/** The claim's outcome: what the slot was granted with, or {@code null} if not. */
	final CompletableFuture<SlotTurn> granted;

	final long deadlineNanos;

	final Slot.Timer timer;

	/** The look at the claim's deadline, once scheduled. */
	Future<?> recheck;

	SlotWaiter(boolean takesHandoff, CompletableFuture<SlotTurn> granted, long deadlineNanos, Slot.Timer timer) {
		this.takesHandoff = takesHandoff;
		this.granted = granted;
		this.deadlineNanos = deadlineNanos;
		this.timer = timer;
	}

}
