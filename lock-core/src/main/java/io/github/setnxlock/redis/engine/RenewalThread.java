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

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The registry's renewal thread, which is also the engine's one timer: besides the
 * watchdog's ticks and watches, the deadlines of waits no thread waits out (asynchronous
 * releases, fencing draws, the slot's looks, attempts given up) and the losses Redis's
 * answers bring run on it, never on the thread that brought an answer. The thread ends
 * after a while without work and comes back with the next task. Closing it runs the
 * deadlines it dropped, so that nothing waits for a timer that will never run.
 *
 * @author setnx-lock authors
 */
final class RenewalThread implements AutoCloseable {

	private static final long IDLE_THREAD_SECONDS = 30;

	final ScheduledThreadPoolExecutor scheduler;

	/** The completions {@link #completeAt} has scheduled and that have not run. */
	private final Set<Runnable> timers = ConcurrentHashMap.newKeySet();

	/** The tasks {@link #run} handed to the thread and that have not run. */
	private final Set<Runnable> tasks = ConcurrentHashMap.newKeySet();

	RenewalThread() {
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "setnx-lock-renewal");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.scheduler.setKeepAliveTime(IDLE_THREAD_SECONDS, TimeUnit.SECONDS);
		this.scheduler.allowCoreThreadTimeOut(true);
	}

	/**
	 * Complete a future with a value at a deadline, unless it completed before; at once,
	 * returning {@code false}, when the engine is closed.
	 */
	<T> boolean completeAt(CompletableFuture<T> future, T value, long deadlineNanos) {
		if (future.isDone()) {
			return true;
		}
		Runnable complete = () -> future.complete(value);
		// Noted before it is scheduled, so that close() finds every timer it drops.
		this.timers.add(complete);
		try {
			Future<?> timer = this.scheduler.schedule(complete, Math.max(0, deadlineNanos - System.nanoTime()),
					TimeUnit.NANOSECONDS);
			future.whenComplete((done, failure) -> {
				timer.cancel(false);
				this.timers.remove(complete);
			});
			return true;
		}
		catch (RejectedExecutionException ex) {
			this.timers.remove(complete);
			future.complete(value);
			return false;
		}
	}

	/**
	 * Run a task on the renewal thread, where a hold's loss is reported, rather than on
	 * the thread that brought Redis's answer; on the calling thread once closed.
	 */
	void run(Runnable task) {
		// Noted, as the timers are, so that close() runs what it drops: an answer whose
		// waiter would otherwise wait for ever.
		Runnable noted = new Runnable() {

			@Override
			public void run() {
				if (RenewalThread.this.tasks.remove(this)) {
					task.run();
				}
			}

		};
		this.tasks.add(noted);
		try {
			this.scheduler.execute(noted);
		}
		catch (RejectedExecutionException ex) {
			noted.run();
		}
	}

	boolean isClosed() {
		return this.scheduler.isShutdown();
	}

	int scheduledTasks() {
		return this.scheduler.getQueue().size();
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		// The timers and tasks it dropped never run: what waits for one goes on now, as
		// at its deadline, rather than for an answer Redis may never give.
		List.copyOf(this.timers).forEach(Runnable::run);
		List.copyOf(this.tasks).forEach(Runnable::run);
	}

}
