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

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.github.setnxlock.LockHandle;

/**
 * {@link DistributedLock} on a method that returns a {@link CompletionStage}: the lock is
 * held from the call until the stage the method returned completes, normally,
 * exceptionally or cancelled, and released from whatever thread completes it.
 * <p>
 * The call returns at once with a {@link CompletableFuture} of its own; the method itself
 * runs once the lock is held, on the registry's callback thread that completed the
 * acquisition (nothing waits on the caller's thread), and what it returns completes the
 * call's future after the release. A release that finds the lock lost fails a stage that
 * succeeded with {@link io.github.setnxlock.LockLostException}, and is added to the error
 * of one that failed.
 * <p>
 * <b>A caller that gives up</b> (cancels its future, or completes it otherwise, as
 * {@code orTimeout} does) stops a wait for the lock: the method then never runs, and a
 * hold that arrives after that is released at once, without {@code holdAtLeast}. Once the
 * method has run, the caller's future is only the caller's copy: giving it up is not
 * passed on to the stage the method returned, and the lock stays held (and renewed) until
 * that stage completes. Cancelling a {@code CompletableFuture} completes it at once but
 * stops nothing of the task behind it, so a cancel passed on would end the hold while the
 * work still runs, and the next holder, in any application, would run beside it. Work
 * that should stop when its caller gives up must be told so by means of its own (a
 * deadline, a flag), and complete its stage when it has stopped; a stage that never
 * completes keeps the lock until {@code setnx.lock.renewal.max-hold}, if set.
 *
 * @author setnx-lock authors
 */
final class LockedStages {

	private LockedStages() {
	}

	static CompletableFuture<Object> call(LockedCall call) {
		CompletableFuture<Optional<LockHandle>> acquisition = call.acquire();
		CompletableFuture<Object> result = new CompletableFuture<>();
		acquisition.whenComplete((acquired, failure) -> {
			if (failure != null) {
				result.completeExceptionally(call.redacted(unwrapped(failure)));
				return;
			}
			if (acquired.isEmpty()) {
				passOn(stageOf(() -> call.notAcquired(CompletableFuture.completedFuture(null))), result, call);
				return;
			}
			LockHandle handle = acquired.get();
			if (result.isDone()) {
				// The caller gave up while the lock was on its way: the method does not
				// run,
				// so nothing is kept for holdAtLeast either.
				handle.release();
				return;
			}
			long acquiredAt = System.nanoTime();
			passOn(stageOf(() -> call.proceed(false)).handle(Outcome::new)
				.thenCompose((outcome) -> call.release(handle, acquiredAt)
					.handle((released, releaseFailure) -> outcome.value(call.redacted(unwrapped(releaseFailure))))),
					result, call);
		});
		// The caller giving up stops the wait for the lock; the method's own stage, once
		// there is one, is left to end the hold.
		result.whenComplete((value, failure) -> {
			if (!acquisition.isDone()) {
				acquisition.cancel(false);
			}
		});
		return result;
	}

	private static void passOn(CompletableFuture<Object> from, CompletableFuture<Object> to, LockedCall call) {
		from.whenComplete((value, failure) -> {
			if (failure != null) {
				to.completeExceptionally(call.redacted(unwrapped(failure)));
			}
			else {
				to.complete(value);
			}
		});
	}

	/**
	 * Call something that returns a stage, as a {@link CompletableFuture}: completed with
	 * {@code null} for a {@code null} stage, failed if the call throws.
	 */
	private static CompletableFuture<Object> stageOf(Call call) {
		Object returned;
		try {
			returned = call.call();
		}
		catch (Throwable ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (returned == null) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Object> done = new CompletableFuture<>();
		((CompletionStage<?>) returned).whenComplete((value, failure) -> {
			if (failure != null) {
				done.completeExceptionally(unwrapped(failure));
			}
			else {
				done.complete(value);
			}
		});
		return done;
	}

	private static Throwable unwrapped(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	@FunctionalInterface
	private interface Call {

		Object call() throws Throwable;

	}

	/**
	 * How the method's stage ended, to be combined with how the release went.
	 */
	private record Outcome(Object result, Throwable failure) {

		Object value(Throwable releaseFailure) {
			Throwable thrown = (this.failure != null) ? unwrapped(this.failure) : null;
			Throwable released = (releaseFailure != null) ? unwrapped(releaseFailure) : null;
			if (thrown != null) {
				if (released != null && released != thrown) {
					thrown.addSuppressed(released);
				}
				throw (thrown instanceof CompletionException completion) ? completion : new CompletionException(thrown);
			}
			if (released != null) {
				throw new CompletionException(released);
			}
			return this.result;
		}

	}

}
