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
package io.github.setnxlock.shedlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockLostException;

/**
 * A ShedLock lock held through a setnx-lock {@link LockHandle}: usable once, by any
 * thread (ShedLock's keep-alive extends from a thread of its own), then spent.
 *
 * @author setnx-lock authors
 */
final class HeldJob implements SimpleLock {

	private static final Log logger = LogFactory.getLog(HeldJob.class);

	private final LockHandle handle;

	private final LockConfiguration configuration;

	private final AtomicBoolean spent = new AtomicBoolean();

	HeldJob(LockHandle handle, LockConfiguration configuration) {
		this.handle = handle;
		this.configuration = configuration;
	}

	@Override
	public void unlock() {
		Duration keep = SetnxLockProvider
			.clamped(Duration.between(ClockProvider.now(), this.configuration.getLockAtLeastUntil()));
		spend("unlocked");
		try {
			SetnxLockProvider.await(keep.compareTo(Duration.ofMillis(1)) > 0 ? this.handle.releaseKeepingFor(keep)
					: this.handle.release());
		}
		catch (LockLostException ex) {
			// Lost before the task ended, which the registry has reported already; for
			// ShedLock an unlock of an expired lock does nothing.
			logger.debug("ShedLock lock '" + this.configuration.getName() + "' was lost before its unlock", ex);
		}
		catch (LockAccessException ex) {
			logger.warn("Could not release ShedLock lock '" + this.configuration.getName()
					+ "'; it ends with its lockAtMostFor", ex);
		}
	}

	@Override
	public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
		// Checked before the lock is spent: a bad configuration leaves it usable.
		LockConfiguration extended = new LockConfiguration(ClockProvider.now(), this.configuration.getName(),
				lockAtMostFor, lockAtLeastFor);
		Duration lease = SetnxLockProvider.leaseUntil(extended);
		spend("extended");
		try {
			if (SetnxLockProvider.await(this.handle.extend(lease))) {
				return Optional.of(new HeldJob(this.handle, extended));
			}
			// Lost: the registry forgets the hold; its release deletes nothing but ours.
			this.handle.release();
		}
		catch (LockAccessException ex) {
			logger.warn(
					"Could not extend ShedLock lock '" + this.configuration.getName() + "'; it keeps its lockAtMostFor",
					ex);
			// Nobody may use this lock any more, but the task may still run: the key
			// stays
			// to the end of the lockAtMostFor it had, and the registry forgets the hold.
			Duration left = SetnxLockProvider
				.clamped(Duration.between(ClockProvider.now(), this.configuration.getLockAtMostUntil()));
			this.handle.releaseKeepingFor(left);
		}
		return Optional.empty();
	}

	private void spend(String how) {
		if (!this.spent.compareAndSet(false, true)) {
			throw new IllegalStateException(
					"ShedLock lock '" + this.configuration.getName() + "' was " + how + " or extended already");
		}
	}

}
