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

package io.github.setnxlock.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a state that servers reach on their own (a replica in sync, a cluster that
 * agrees on its slots, a finished failover), asking again every few milliseconds; a
 * question that fails meanwhile counts as "not yet".
 *
 * @author setnx-lock authors
 */
final class Polling {

	private Polling() {
	}

	static void await(String what, Duration timeout, BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		RuntimeException last = null;
		while (true) {
			try {
				if (condition.getAsBoolean()) {
					return;
				}
			}
			catch (RuntimeException ex) {
				last = ex;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Timed out after " + timeout.toMillis() + " ms waiting for " + what,
						last);
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + what, ex);
			}
		}
	}

}
