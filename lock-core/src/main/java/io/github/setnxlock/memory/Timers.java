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

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two kinds of threads every in-memory lock space shares: one timer that ends leases
 * and waits nobody parks a thread for, and callback threads on which asynchronous
 * acquisitions complete, so that a continuation never runs on the timer or inside an
 * {@code unlock()}. Both are daemon threads that end when idle, so a test JVM neither
 * waits for them nor has to close a registry.
 *
 * @author setnx-lock authors
 */
final class Timers {

	private static final ScheduledThreadPoolExecutor TIMER = timer();

	private static final ExecutorService CALLBACKS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
			new SynchronousQueue<>(), daemon("setnx-lock-memory-callback-"));

	private Timers() {
	}

	private static ScheduledThreadPoolExecutor timer() {
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemon("setnx-lock-memory-timer-"));
		// Leases released early are the rule: their tasks must not pile up until due.
		timer.setRemoveOnCancelPolicy(true);
		timer.setKeepAliveTime(30, TimeUnit.SECONDS);
		timer.allowCoreThreadTimeOut(true);
		return timer;
	}

	static ThreadFactory daemon(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			// Nothing of the thread that happened to start it: no inheritable thread
			// locals, and the class loader of this library rather than, say, a test's
			// or a web application's, which it would otherwise keep from being collected.
			Thread thread = new Thread(null, task, prefix + count.incrementAndGet(), 0, false);
			thread.setDaemon(true);
			thread.setContextClassLoader(Timers.class.getClassLoader());
			return thread;
		};
	}

	static ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
		return TIMER.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
	}

	static void callback(Runnable task) {
		CALLBACKS.execute(task);
	}

}
