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

package io.github.setnxlock;

import java.time.Duration;

import io.github.setnxlock.LockRegistry.LockedTask;
import io.github.setnxlock.LockRegistry.LockedWork;

/**
 * The take, run, release of {@link LockRegistry#executeLocked} and
 * {@link LockRegistry#tryExecuteLocked}. The release runs whatever the work did; when the
 * work threw, a failed release is added to what it threw, so the work's own failure is
 * what the caller sees; when the work returned, a failed release is thrown (the lock was
 * lost while the work ran, which the caller must hear of).
 *
 * @author setnx-lock authors
 */
final class LockedExecution {

	private LockedExecution() {
	}

	static void checkLease(Duration lease) {
		if (lease == null || lease.isNegative() || lease.isZero()) {
			throw new IllegalArgumentException("The lease must be positive, but was " + lease);
		}
	}

	static <T, E extends Throwable> T execute(LeasedLock lock, Duration wait, Duration lease, LockedWork<T, E> work)
			throws E {
		if (!acquire(lock, wait, lease)) {
			throw new LockNotAcquiredException(lock.name(), lock.key(), wait, null, lock.holder());
		}
		return runHeld(lock, work);
	}

	static <E extends Throwable> boolean tryExecute(LeasedLock lock, Duration wait, Duration lease, LockedTask<E> task)
			throws E {
		if (!acquire(lock, wait, lease)) {
			return false;
		}
		runHeld(lock, work(task));
		return true;
	}

	static <E extends Throwable> LockedWork<Void, E> work(LockedTask<E> task) {
		return () -> {
			task.run();
			return null;
		};
	}

	private static boolean acquire(LeasedLock lock, Duration wait, Duration lease) {
		try {
			return (lease != null) ? lock.tryLock(wait, lease) : lock.tryLock(wait);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockNotAcquiredException(lock.name(), lock.key(), wait, ex);
		}
	}

	private static <T, E extends Throwable> T runHeld(LeasedLock lock, LockedWork<T, E> work) throws E {
		T result;
		try {
			result = work.run();
		}
		catch (Throwable failure) {
			try {
				lock.unlock();
			}
			catch (RuntimeException releaseFailure) {
				failure.addSuppressed(releaseFailure);
			}
			throw failure;
		}
		lock.unlock();
		return result;
	}

}
