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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * An asynchronous acquisition in line for a key of a {@link LockSpace}: completed with
 * its hold when the key is handed to it, with {@code null} when its wait ends, and
 * cancelled by a caller who gives up.
 *
 * @author setnx-lock authors
 */
final class AsyncWaiter {

	final String key;

	final String name;

	final Duration lease;

	final CompletableFuture<MemoryHold> granted = new CompletableFuture<>();

	/** The end of its wait, on the timer; guarded by the space's monitor. */
	ScheduledFuture<?> deadline;

	AsyncWaiter(String key, String name, Duration lease) {
		this.key = key;
		this.name = name;
		this.lease = lease;
	}

}
