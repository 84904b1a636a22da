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
package io.github.setnxlock.reactor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.annotation.WorkUnderHold;

/**
 * Locks for Reactor pipelines, over {@link LeasedLock#acquireAsync}: nothing is acquired
 * until subscription, no thread waits for the lock, and the lock is released when the
 * work terminates, or after its subscriber cancels (below). <pre class="code">
 * Mono&lt;Receipt&gt; receipt = ReactiveLocks.withLock(registry.obtain("orders:" + id, "orders"),
 * 		Duration.ofSeconds(5), payments.charge(id));
 * </pre>
 * <p>
 * Each subscription is an acquisition of its own: a {@code Mono} nobody subscribes to
 * takes no lock, and one subscribed twice locks twice, one after the other. The holds are
 * asynchronous ones (see {@link LockHandle}): not reentrant, renewed while held unless a
 * lease is given, released from whatever thread ends the work. A release that finds the
 * lock lost (its lease ended, or another client took the key) fails the publisher with
 * {@link io.github.setnxlock.LockLostException} if the work succeeded, and is added to
 * the work's own error otherwise, so the work done under a lost lock is not reported as
 * done. Signals after the acquisition arrive on the registry's callback threads.
 * <p>
 * <b>A subscriber that cancels</b> while the lock is on its way gives the acquisition up,
 * and the work is never subscribed. Once the work runs, the cancel is passed on to it,
 * and the lock is kept until every call made into the work has returned (the
 * subscription, the requests for values, the cancel itself), since Reactive Streams gives
 * no signal when cancelled work has stopped. So work that stops within its cancel
 * ({@code Mono.delay}, {@code Flux.interval}, Reactor Netty) is released at once, and
 * work that blocks the thread subscribing to it or asking it for values
 * ({@code Mono.fromCallable} without {@code subscribeOn}, {@code Flux.generate}) keeps
 * the lock until the step in progress returns. Work that goes on after the cancel on a
 * thread of its own cannot be seen, and the lock is released while it may still run: the
 * task behind {@code Mono.fromFuture(future)} (Reactor cancels the future, not the task),
 * code on a {@code subscribeOn} or {@code publishOn} scheduler that does not stop for the
 * interrupt Reactor sends its worker. Let the resource check the
 * {@link LockHandle#fencingToken() fencing token} where that matters.
 *
 * @author setnx-lock authors
 */
public final class ReactiveLocks {

	private ReactiveLocks() {
	}

	/**
	 * Acquire a lock at subscription, with the registry's lease, renewed while held.
	 * @param lock the lock
	 * @param wait how long to wait for it; zero for a single attempt
	 * @return the hold, which the subscriber must release; empty if another holder kept
	 * the lock for the whole wait; cancelling the subscription while it waits gives the
	 * acquisition up
	 */
	public static Mono<LockHandle> acquire(LeasedLock lock, Duration wait) {
		return acquisition(() -> lock.acquireAsync(wait)).flatMap(Mono::justOrEmpty)
			.doOnDiscard(LockHandle.class, LockHandle::release);
	}

	/**
	 * Acquire a lock at subscription, holding it for a lease that is not renewed.
	 * @param lock the lock
	 * @param wait how long to wait for it; zero for a single attempt
	 * @param lease how long the hold lasts unless released earlier; positive
	 * @return the hold, which the subscriber must release; empty if another holder kept
	 * the lock for the whole wait
	 */
	public static Mono<LockHandle> acquire(LeasedLock lock, Duration wait, Duration lease) {
		return acquisition(() -> lock.acquireAsync(wait, lease)).flatMap(Mono::justOrEmpty)
			.doOnDiscard(LockHandle.class, LockHandle::release);
	}

	/**
	 * Run a {@code Mono} under a lock: acquired at subscription with the registry's
	 * renewed lease, released when the work terminates, or after a cancel as the class
	 * says.
	 * @param <T> the type of the work's value
	 * @param lock the lock
	 * @param wait how long to wait for it
	 * @param work the work, subscribed once the lock is held
	 * @return the work's outcome; failed with {@link LockNotAcquiredException} if the
	 * wait ended without the lock
	 */
	public static <T> Mono<T> withLock(LeasedLock lock, Duration wait, Mono<T> work) {
		return withLock(lock, wait, () -> lock.acquireAsync(wait), work);
	}

	/**
	 * Run a {@code Mono} under a lock held for a lease that is not renewed.
	 * @param <T> the type of the work's value
	 * @param lock the lock
	 * @param wait how long to wait for it
	 * @param lease how long the hold lasts unless released earlier
	 * @param work the work, subscribed once the lock is held
	 * @return the work's outcome; failed with {@link LockNotAcquiredException} if the
	 * wait ended without the lock
	 */
	public static <T> Mono<T> withLock(LeasedLock lock, Duration wait, Duration lease, Mono<T> work) {
		return withLock(lock, wait, () -> lock.acquireAsync(wait, lease), work);
	}

	/**
	 * Run a {@code Flux} under a lock: acquired at subscription with the registry's
	 * renewed lease, released when the work terminates, or after a cancel as the class
	 * says.
	 * @param <T> the type of the work's values
	 * @param lock the lock
	 * @param wait how long to wait for it
	 * @param work the work, subscribed once the lock is held
	 * @return the work's values; failed with {@link LockNotAcquiredException} if the wait
	 * ended without the lock
	 */
	public static <T> Flux<T> withLock(LeasedLock lock, Duration wait, Flux<T> work) {
		return withLock(lock, wait, () -> lock.acquireAsync(wait), work);
	}

	/**
	 * Run a {@code Flux} under a lock held for a lease that is not renewed.
	 * @param <T> the type of the work's values
	 * @param lock the lock
	 * @param wait how long to wait for it
	 * @param lease how long the hold lasts unless released earlier
	 * @param work the work, subscribed once the lock is held
	 * @return the work's values; failed with {@link LockNotAcquiredException} if the wait
	 * ended without the lock
	 */
	public static <T> Flux<T> withLock(LeasedLock lock, Duration wait, Duration lease, Flux<T> work) {
		return withLock(lock, wait, () -> lock.acquireAsync(wait, lease), work);
	}

	/**
	 * Run work that needs its hold (for the {@link LockHandle#fencingTokenAsync() fencing
	 * token}, or to {@link LockHandle#checkHeld() check} it between steps) under a lock
	 * acquired at subscription with the registry's renewed lease, released when the work
	 * terminates, or after a cancel as the class says. The work must not release the hold
	 * itself.
	 * @param <T> the type of the work's values
	 * @param lock the lock
	 * @param wait how long to wait for it
	 * @param work makes the work, once the lock is held
	 * @return the work's values (use {@link Flux#singleOrEmpty()} for a {@code Mono});
	 * failed with {@link LockNotAcquiredException} if the wait ended without the lock
	 */
	public static <T> Flux<T> withLock(LeasedLock lock, Duration wait,
			Function<LockHandle, ? extends Publisher<T>> work) {
		return withLock(lock, wait, () -> lock.acquireAsync(wait), work);
	}

	private static <T> Mono<T> withLock(LeasedLock lock, Duration wait,
			Supplier<CompletableFuture<Optional<LockHandle>>> acquisition, Mono<T> work) {
		return withLock(lock, wait, acquisition, (handle) -> work).singleOrEmpty();
	}

	private static <T> Flux<T> withLock(LeasedLock lock, Duration wait,
			Supplier<CompletableFuture<Optional<LockHandle>>> acquisition, Flux<T> work) {
		return withLock(lock, wait, acquisition, (handle) -> work);
	}

	private static <T> Flux<T> withLock(LeasedLock lock, Duration wait,
			Supplier<CompletableFuture<Optional<LockHandle>>> acquisition,
			Function<LockHandle, ? extends Publisher<T>> work) {
		return acquisition(acquisition).flatMapMany((held) -> {
			if (held.isEmpty()) {
				return Flux.error(new LockNotAcquiredException(lock.name(), lock.key(), wait, null));
			}
			LockHandle handle = held.get();
			return WorkUnderHold.run(Flux.defer(() -> work.apply(handle)), handle::release, UnaryOperator.identity());
		});
	}

	/**
	 * An acquisition started at subscription; a cancelled subscription cancels it, and a
	 * hold that arrives after the subscriber left is released rather than lost.
	 */
	private static Mono<Optional<LockHandle>> acquisition(
			Supplier<CompletableFuture<Optional<LockHandle>>> acquisition) {
		return Mono.fromFuture(acquisition, false).doOnDiscard(Optional.class, ReactiveLocks::releaseDiscarded);
	}

	private static void releaseDiscarded(Optional<?> held) {
		held.filter(LockHandle.class::isInstance).map(LockHandle.class::cast).ifPresent(LockHandle::release);
	}

}
