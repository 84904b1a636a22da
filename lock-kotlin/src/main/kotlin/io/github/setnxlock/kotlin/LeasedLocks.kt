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
@file:JvmName("LeasedLocks")

package io.github.setnxlock.kotlin

import io.github.setnxlock.LeasedLock
import io.github.setnxlock.LockHandle
import io.github.setnxlock.LockNotAcquiredException
import java.time.Duration
import java.util.Optional
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext

/**
 * Runs [action] holding this lock, suspending while it waits: no thread waits for the lock
 * or for Redis.
 *
 * The lock is taken within [wait] (zero for one attempt), held with [lease] if given (not
 * renewed: the hold ends with it) or else with the registry's lease, renewed while the
 * action runs, and released when the action has ended, however it ends.
 *
 * **Cancellation.** A coroutine cancelled while it waits for the lock stops waiting, and an
 * attempt whose answer was still coming is undone. A coroutine cancelled while [action] runs
 * keeps the lock until the action has ended: its `finally` blocks and the children it
 * launched in its own scope run under the lock, which is released after them. Work the
 * action started elsewhere (another scope, a thread of its own) is not waited for.
 *
 * @param wait how long to wait for the lock; zero for a single attempt
 * @param lease how long the hold lasts at most, not renewed; `null` for the registry's
 * lease, renewed while held
 * @param action the work to run under the lock
 * @return what [action] returned
 * @throws LockNotAcquiredException if another holder kept the lock for the whole wait; its
 * message names that holder where Redis does
 * @throws io.github.setnxlock.LockLostException if the hold was lost before the action
 * ended (added as suppressed when the action threw)
 * @throws io.github.setnxlock.LockAccessException if Redis cannot be used for this key
 */
suspend fun <T> LeasedLock.withLock(wait: Duration, lease: Duration? = null, action: suspend () -> T): T {
	val acquisition = if (lease == null) acquireAsync(wait) else acquireAsync(wait, lease)
	// await() cancels the acquisition when this coroutine is cancelled while waiting, and
	// the engine undoes an attempt whose answer is still coming; a hold that had arrived
	// just before is given back here, since no action will release it.
	val handle: LockHandle = try {
		acquisition.await().orElse(null)
	}
	catch (cancelled: CancellationException) {
		giveBack(acquisition)
		throw cancelled
	} ?: throw LockNotAcquiredException(name(), key(), wait, null, holderOf(this))
	val result = try {
		action()
	}
	catch (failure: Throwable) {
		release(handle, failure)
		throw failure
	}
	release(handle, null)
	return result
}

/**
 * Releases a hold that arrived for a coroutine cancelled while it waited.
 */
private fun giveBack(acquisition: CompletableFuture<Optional<LockHandle>>) {
	if (acquisition.isDone && !acquisition.isCancelled && !acquisition.isCompletedExceptionally) {
		acquisition.getNow(Optional.empty()).ifPresent { handle ->
			handle.release()
		}
	}
}

/**
 * Reads who holds a lock that could not be had, for the exception's message, off the
 * caller's dispatcher (the read blocks, a second at most).
 */
private suspend fun holderOf(lock: LeasedLock): String? = withContext(Dispatchers.IO) { lock.holder() }

/**
 * Releases the hold whatever the caller's coroutine is doing: a release that a cancel
 * interrupted would leave the key to its lease.
 */
private suspend fun release(handle: LockHandle, failure: Throwable?) {
	withContext(NonCancellable) {
		try {
			handle.release().await()
		}
		catch (releaseFailure: Exception) {
			if (failure == null) {
				throw releaseFailure
			}
			failure.addSuppressed(releaseFailure)
		}
	}
}
