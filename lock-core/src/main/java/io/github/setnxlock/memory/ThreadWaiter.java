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
import java.util.concurrent.locks.Condition;

import io.github.setnxlock.LeaseLimits;

/**
 * A thread in line for a key of a {@link LockSpace}, parked on a condition of its own so
 * that handing it the key wakes it and nobody else. It leaves the line itself when its
 * wait ends.
 *
 * @author setnx-lock authors
 */
final class ThreadWaiter extends Waiter {

	private final Thread thread = Thread.currentThread();

	/** Signalled when the key is handed to it. */
	final Condition turn;

	/** The hold it was handed; {@code null} while it waits. */
	MemoryHold hold;

	/** Whether an interrupt came during an uninterruptible wait, kept for the caller. */
	boolean interrupted;

	ThreadWaiter(String key, String name, Duration lease, Condition turn) {
		super(key, name, lease);
		this.turn = turn;
	}

	/**
	 * Wait in line, with the space's monitor held (the wait lets it go), until handed the
	 * key or until the wait ends. Leaves the line unless handed the key.
	 * @return the hold, or {@code null} if the wait ended first
	 * @throws InterruptedException if interrupted in an interruptible wait before being
	 * handed the key
	 */
	MemoryHold awaitTurn(KeyState state, long startNanos, long waitNanos, boolean interruptible,
			List<Runnable> callbacks, LockSpace space) throws InterruptedException {
		while (this.hold == null) {
			long left = (waitNanos == LeaseLimits.NO_LIMIT_NANOS) ? waitNanos
					: waitNanos - (System.nanoTime() - startNanos);
			if (left <= 0) {
				// The holder may have ended just as the wait did: look once more.
				state.settle(System.nanoTime(), callbacks, space);
				if (this.hold == null) {
					state.line.remove(this);
				}
				return this.hold;
			}
			try {
				if (left == LeaseLimits.NO_LIMIT_NANOS) {
					this.turn.await();
				}
				else {
					this.turn.awaitNanos(left);
				}
			}
			catch (InterruptedException ex) {
				if (interruptible && this.hold == null) {
					state.line.remove(this);
					throw ex;
				}
				// Waiting again with the flag set would spin; and a thread handed the key
				// before the interrupt was seen keeps both.
				this.interrupted = true;
			}
		}
		return this.hold;
	}

	@Override
	Thread owner() {
		return this.thread;
	}

	@Override
	boolean hasGivenUp() {
		return false;
	}

	@Override
	void handOver(MemoryHold hold, List<Runnable> callbacks, LockSpace space) {
		this.hold = hold;
		this.turn.signal();
	}

}
