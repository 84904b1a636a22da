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
package io.github.setnxlock.redis.redlock;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread on which the Redlock classes wait: a call's node timeout
 * ({@link Quorum}), the pause before a cleanup is sent again ({@link RedlockCleanups}),
 * and the pause before a node's uptime is read again ({@link RedlockRestarts}). A daemon,
 * so that it never keeps the JVM from ending; a cancelled node timeout (most calls are
 * decided before theirs ends) leaves its queue at once.
 *
 * @author setnx-lock authors
 */
final class RedlockTimer {

	private static final ScheduledThreadPoolExecutor timer = newTimer();

	private RedlockTimer() {
	}

	static ScheduledFuture<?> schedule(Runnable task, long delayMillis) {
		return timer.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
	}

	private static ScheduledThreadPoolExecutor newTimer() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "setnx-lock-redlock-timeout");
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		return executor;
	}

}
