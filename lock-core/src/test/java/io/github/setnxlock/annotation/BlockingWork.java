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
package io.github.setnxlock.annotation;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Blocking work for tests of what a cancel does to a hold: it goes on through interrupts,
 * as much blocking code does, and tells when one comes. Public for the tests of
 * {@code ReactiveLocks} too.
 *
 * @author setnx-lock authors
 */
public final class BlockingWork {

	private BlockingWork() {
	}

	/**
	 * Sleep for a while, through interrupts.
	 * @param time how long
	 * @param interrupted set as soon as the thread is interrupted
	 */
	public static void sleep(Duration time, AtomicBoolean interrupted) {
		long end = System.nanoTime() + time.toNanos();
		for (long left = time.toNanos(); left > 0; left = end - System.nanoTime()) {
			try {
				TimeUnit.NANOSECONDS.sleep(left);
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
		}
	}

	/**
	 * Wait until a gate opens, through interrupts.
	 * @param gate the gate
	 * @param interrupted set as soon as the thread is interrupted
	 */
	public static void pass(CountDownLatch gate, AtomicBoolean interrupted) {
		while (true) {
			try {
				gate.await();
				return;
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
		}
	}

}
