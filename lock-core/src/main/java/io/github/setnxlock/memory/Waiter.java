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
import java.util.List;

/**
 * One place in the line for a key of a {@link LockSpace}: a thread that waits, or an
 * asynchronous acquisition. Threads and asynchronous acquisitions share one line, served
 * first come, first served: a free key is handed to the head of the line, which then
 * holds it. Guarded by the space's monitor.
 *
 * @author setnx-lock authors
 */
abstract class Waiter {

	final String key;

	final String name;

	/** The lease it asked for, or {@code null} for a hold kept until released. */
	final Duration lease;

	Waiter(String key, String name, Duration lease) {
		this.key = key;
		this.name = name;
		this.lease = lease;
	}

	/**
	 * Return the thread that will hold the key, {@code null} for a hold of no thread.
	 */
	abstract Thread owner();

	/**
	 * Whether it gave up although still in line, so a free key passes it by.
	 */
	abstract boolean hasGivenUp();

	/**
	 * Hand it the key: it holds it from now. What must not run under the space's monitor
	 * is added to {@code callbacks}, for the space to run on a callback thread.
	 */
	abstract void handOver(MemoryHold hold, List<Runnable> callbacks, LockSpace space);

}
