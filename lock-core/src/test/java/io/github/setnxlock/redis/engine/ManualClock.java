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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import io.github.setnxlock.redis.engine.Waits.Ticker;
import io.github.setnxlock.redis.engine.Waits.Timer;

/**
 * A clock that moves only when a test moves it, and the timer on it: what is scheduled
 * runs, in the order it comes due, on the test's thread as the clock passes its time. It
 * starts far from zero so that times compare as {@link System#nanoTime()}'s do.
 *
 * @author setnx-lock authors
 */
final class ManualClock implements Ticker, Timer {

	private long now = 1_000_000_000_000L;

	private final List<Due> scheduled = new ArrayList<>();

	private int schedules;

	@Override
	public long read() {
		return this.now;
	}

	@Override
	public Future<?> schedule(Runnable task, long atNanos) {
		Due due = new Due(atNanos, task, new CompletableFuture<>());
		this.scheduled.add(due);
		this.schedules++;
		return due.cancel();
	}

	/**
	 * Move the clock on, running each task as its time comes.
	 * @param time how far
	 */
	void advance(Duration time) {
		long until = this.now + time.toNanos();
		while (true) {
			Due next = this.scheduled.stream()
				.filter((due) -> !due.cancel().isDone() && due.atNanos() - until <= 0)
				.min(Comparator.comparingLong(Due::atNanos))
				.orElse(null);
			if (next == null) {
				break;
			}
			this.scheduled.remove(next);
			this.now = Math.max(this.now, next.atNanos());
			next.cancel().complete(null);
			next.task().run();
		}
		this.now = until;
	}

	/**
	 * Return how many tasks were scheduled so far, cancelled ones included.
	 */
	int schedules() {
		return this.schedules;
	}

	private record Due(long atNanos, Runnable task, CompletableFuture<Void> cancel) {

	}

}
