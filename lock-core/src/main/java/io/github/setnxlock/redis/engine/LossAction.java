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

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a hold's owner asked to happen when the hold is found lost (the thread-bound view
 * interrupts its thread), with the renewal thread's watch of the deadline that finds it.
 * It belongs to the reentrant entry that asked: when that entry ends, or the hold, it is
 * dropped and its watch cancelled.
 *
 * @author setnx-lock authors
 */
final class LossAction {

	/** Set by the first request; cleared when the entry that asked ends. */
	private final AtomicReference<Runnable> action = new AtomicReference<>();

	/** The entry (hold count) that asked, 0 for none: the owner's only. */
	private int entry;

	/** The renewal thread's watch of the deadline, if any. */
	private volatile ScheduledFuture<?> watch;

	/**
	 * Ask for an action, for the given entry of the hold.
	 * @return {@code true} the first time it is asked
	 */
	boolean request(Runnable requested, int holdCount) {
		if (!this.action.compareAndSet(null, requested)) {
			return false;
		}
		this.entry = holdCount;
		return true;
	}

	boolean isRequested() {
		return this.action.get() != null;
	}

	/**
	 * Keep the watch of the deadline, to cancel when the action is no longer wanted.
	 */
	void watching(ScheduledFuture<?> deadlineWatch) {
		this.watch = deadlineWatch;
	}

	void run() {
		Runnable requested = this.action.get();
		if (requested != null) {
			requested.run();
		}
	}

	/**
	 * An entry of the hold ends: drop the action if that entry asked for it.
	 */
	void entryEnded(int holdCount) {
		if (holdCount == this.entry) {
			drop();
		}
	}

	/**
	 * Drop the action and its watch: the entry that asked for it has ended, or the hold.
	 */
	void drop() {
		this.action.set(null);
		this.entry = 0;
		ScheduledFuture<?> deadlineWatch = this.watch;
		if (deadlineWatch != null) {
			deadlineWatch.cancel(false);
		}
	}

}
