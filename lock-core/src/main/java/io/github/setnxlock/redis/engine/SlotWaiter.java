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
import java.util.concurrent.locks.Condition;
import java.util.function.LongFunction;

/**
 * One in line: a parked thread and the condition it waits on (a handoff wakes the one
 * waiter it concerns), or an asynchronous claim and what it needs to wait without a
 * thread; and whether it takes a local hand-off. A claim's fields are guarded by
 * {@link Slot}'s mutex.
 *
 * @author setnx-lock authors
 */
final class SlotWaiter {

	/** A thread's condition, or {@code null} for a claim. */
	final Condition woken;

	final boolean takesHandoff;

	/** A claim's outcome, or {@code null} for a thread. */
	final CompletableFuture<Boolean> granted;

	final long deadlineNanos;

	final LongFunction<Future<?>> timer;

	/** The claim's next look, if one is scheduled, and when. */
	Future<?> recheck;

	long recheckAtNanos = Waits.NO_DEADLINE;

	SlotWaiter(Condition woken, boolean takesHandoff, CompletableFuture<Boolean> granted, long deadlineNanos,
			LongFunction<Future<?>> timer) {
		this.woken = woken;
		this.takesHandoff = takesHandoff;
		this.granted = granted;
		this.deadlineNanos = deadlineNanos;
		this.timer = timer;
	}

}
