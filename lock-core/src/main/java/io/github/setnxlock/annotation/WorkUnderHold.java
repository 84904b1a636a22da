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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Runs a Reactor publisher's work under a hold that is already taken, and releases it
 * once per subscription: before the work's end is passed on, or, after a cancel, once the
 * work has given back every call the library made into it. Shared by the advice of
 * {@link DistributedLock} and by {@code ReactiveLocks}, and public only for the latter,
 * which lives in the package for Reactor: applications use {@code ReactiveLocks}.
 * <p>
 * <b>What a cancel does to the hold.</b> The cancel is passed to the work at once, so
 * work that can stop stops and an endless {@code Flux} ends. Reactive Streams gives no
 * signal when cancelled work has stopped, so the hold waits for what the library can see:
 * the calls it made into the work (subscribing to it, which calls the method; asking it
 * for values; the cancel itself) must all have returned. That covers work that runs on
 * the thread making those calls ({@code Mono.fromCallable} or {@code Mono.create} without
 * {@code subscribeOn}, {@code Flux.generate}, a method body that blocks) and work that
 * stops within its cancel (timers, Reactor Netty). It cannot cover work that goes on
 * after the cancel on a thread of its own: the task behind {@code Mono.fromFuture}, code
 * on a {@code subscribeOn} or {@code publishOn} scheduler that does not stop for the
 * interrupt Reactor sends it, a Kotlin {@code suspend} function's cancellation, which
 * runs on its caller's dispatcher. The hold is released while such work may still run.
 *
 * @author setnx-lock authors
 */
public final class WorkUnderHold {

	private WorkUnderHold() {
	}

	/**
	 * Run work under a hold. The result may be subscribed once: make a new one for each
	 * subscription, with the hold that subscription acquired.
	 * @param <T> the type of the work's values
	 * @param work the work, subscribed when the result is
	 * @param release releases the hold; called once
	 * @param releaseFailure what a failed release is passed on as: the error of work that
	 * completed, or added (suppressed) to the error of work that failed
	 * @return the work's values and end, its end after the release
	 */
	public static <T> Flux<T> run(Publisher<T> work, Supplier<CompletableFuture<Void>> release,
			UnaryOperator<Throwable> releaseFailure) {
		return Flux.from((Publisher<T>) (subscriber) -> {
			Follower<T> follower = new Follower<>(Operators.toCoreSubscriber(subscriber), release, releaseFailure);
			follower.into(() -> work.subscribe(follower));
		});
	}

	/**
	 * Stands between the work and its subscriber, counting the calls into the work that
	 * have not returned, and releases the hold at the work's end or, after a cancel, when
	 * that count reaches zero.
	 */
	private static final class Follower<T> implements CoreSubscriber<T>, Subscription {

		private final CoreSubscriber<? super T> actual;

		private final Supplier<CompletableFuture<Void>> release;

		private final UnaryOperator<Throwable> releaseFailure;

		private final AtomicInteger calls = new AtomicInteger();

		private final AtomicBoolean released = new AtomicBoolean();

		private volatile boolean cancelled;

		private volatile Subscription upstream;

		Follower(CoreSubscriber<? super T> actual, Supplier<CompletableFuture<Void>> release,
				UnaryOperator<Throwable> releaseFailure) {
			this.actual = actual;
			this.release = release;
			this.releaseFailure = releaseFailure;
		}

		@Override
		public Context currentContext() {
			return this.actual.currentContext();
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
		}

		@Override
		public void onNext(T value) {
			this.actual.onNext(value);
		}

		@Override
		public void onError(Throwable failure) {
			end(failure);
		}

		@Override
		public void onComplete() {
			end(null);
		}

		@Override
		public void request(long n) {
			into(() -> this.upstream.request(n));
		}

		@Override
		public void cancel() {
			into(() -> {
				this.cancelled = true;
				this.upstream.cancel();
			});
		}

		/**
		 * Make a call into the work, counted while it runs. The count is read before the
		 * flag when a call leaves, and the cancel sets the flag inside a call of its own,
		 * so the last call to leave after a cancel always sees it.
		 */
		void into(Runnable call) {
			this.calls.incrementAndGet();
			try {
				call.run();
			}
			finally {
				if (this.calls.decrementAndGet() == 0 && this.cancelled) {
					releaseOnce();
				}
			}
		}

		/**
		 * Release the hold before passing the work's end on, so that a lost lock fails
		 * what completed. Work that ends after a cancel ends the hold too (it has
		 * stopped), and nobody waits for its end.
		 */
		private void end(Throwable failure) {
			CompletableFuture<Void> releasing = releaseOnce();
			if (releasing == null) {
				return;
			}
			releasing.whenComplete((released, releaseError) -> {
				if (this.cancelled) {
					return;
				}
				Throwable lost = (releaseError != null) ? this.releaseFailure.apply(unwrapped(releaseError)) : null;
				if (failure != null) {
					if (lost != null && lost != failure) {
						failure.addSuppressed(lost);
					}
					this.actual.onError(failure);
				}
				else if (lost != null) {
					this.actual.onError(lost);
				}
				else {
					this.actual.onComplete();
				}
			});
		}

		/**
		 * Release the hold unless that was done.
		 * @return the release, or {@code null} when it was done before
		 */
		private CompletableFuture<Void> releaseOnce() {
			if (!this.released.compareAndSet(false, true)) {
				return null;
			}
			try {
				return this.release.get();
			}
			catch (RuntimeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		private static Throwable unwrapped(Throwable failure) {
			return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
					: failure;
		}

	}

}
