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
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import io.github.setnxlock.LockHandle;

/**
 * {@link DistributedLock} on a method that returns a {@link CompletionStage}: the lock is
 * held from the call until the returned stage completes, normally, exceptionally or
 * cancelled, and released from whatever thread completes it.
 * <p>
 * The call returns at once with a {@link CompletableFuture}; the method itself runs once
 * the lock is held, on the registry's callback thread that completed the acquisition
 * (nothing waits on the caller's thread), and what it returns completes the call's future
 * after the release. A release that finds the lock lost fails a stage that succeeded with
 * {@link io.github.setnxlock.LockLostException}, and is added to the error of one that
 * failed. Cancelling the call's future gives up a wait for the lock, or cancels the
 * method's stage, whose end releases the lock.
 *
 * @author setnx-lock authors
 */
final class LockedStages {

	private LockedStages() {
	}

	static CompletableFuture<Object> call(LockedCall call) {
		CompletableFuture<Optional<LockHandle>> acquisition = call.acquire();
		CompletableFuture<Object> result = new CompletableFuture<>();
		AtomicReference<CompletableFuture<Object>> work = new AtomicReference<>();
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
			long acquiredAt = System.nanoTime();
			if (result.isDone()) {
				// The caller gave up (cancelled, or completed the future itself) while
				// the lock was on its way: the method does not run.
				call.release(handle, acquiredAt);
				return;
			}
			CompletableFuture<Object> done = stageOf(() -> call.proceed(false));
			work.set(done);
			if (result.isDone()) {
				done.cancel(false);
			}
			passOn(done.handle(Outcome::new)
				.thenCompose((outcome) -> call.release(handle, acquiredAt)
					.handle((released, releaseFailure) -> outcome.value(call.redacted(unwrapped(releaseFailure))))),
					result, call);
		});
		// The caller giving up stops the wait for the lock, or cancels the method's
		// stage, whose end releases the lock.
		result.whenComplete((value, failure) -> {
			if (!acquisition.isDone()) {
				acquisition.cancel(false);
			}
			CompletableFuture<Object> running = work.get();
			if (running != null && !running.isDone()) {
				running.cancel(false);
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
		// The call's cancel reaches the method's own future.
		done.whenComplete((value, failure) -> {
			if (done.isCancelled() && returned instanceof Future<?> future) {
				future.cancel(false);
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
