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
import java.util.concurrent.atomic.AtomicBoolean;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import io.github.setnxlock.LockHandle;

/**
 * {@link DistributedLock} on a method that returns a Reactor {@code Mono} or
 * {@code Flux}: the call returns a publisher at once, which takes the lock when it is
 * subscribed (without a thread waiting), makes the method's own call once the lock is
 * held, and releases the lock when that publisher terminates or its subscriber cancels. A
 * publisher nobody subscribes to takes no lock and never calls the method; one subscribed
 * twice calls it twice, each time under the lock.
 * <p>
 * A release that finds the lock lost fails a publisher that completed with
 * {@link io.github.setnxlock.LockLostException}. When the lock cannot be had, the
 * annotation's {@link OnLockFailure} applies at subscription: an error, an empty
 * publisher, or the fallback's publisher. Loaded only for such methods, so Reactor is
 * needed only by applications that return its types.
 * <p>
 * A Kotlin {@code suspend} function is held the same way ({@link SuspendFunctions}): the
 * {@code Mono} that Spring makes of its run is subscribed when the caller's coroutine
 * awaits it, and cancelling that coroutine cancels the subscription, which releases the
 * lock.
 *
 * @author setnx-lock authors
 */
final class LockedPublishers {

	private LockedPublishers() {
	}

	static Object call(LockedCall call) {
		boolean mono = call.method().kind == LockedMethod.Kind.MONO;
		Mono<Held> acquisition = Mono.fromFuture(call::acquire, false)
			.doOnDiscard(Optional.class, LockedPublishers::releaseDiscarded)
			.map((acquired) -> new Held(call, acquired.orElse(null)));
		Flux<Object> locked = Flux
			.usingWhen(acquisition, (held) -> underHold(held, mono), Held::release, (held, failure) -> held.release(),
					Held::release)
			.onErrorMap(call::redacted);
		return mono ? locked.singleOrEmpty() : locked;
	}

	/**
	 * The method's own publisher under the hold, released before its end is passed on, so
	 * that a lost lock fails what completed; or, without a hold, what the annotation says
	 * to do.
	 */
	private static Flux<Object> underHold(Held held, boolean mono) {
		Flux<Object> work = Flux.defer(() -> Flux.from(held.work(mono)));
		if (held.handle == null) {
			return work;
		}
		return work.materialize()
			.concatMap((signal) -> (signal.isOnComplete() || signal.isOnError()) ? held.releaseBefore(signal)
					: Mono.just(signal))
			.dematerialize();
	}

	private static void releaseDiscarded(Optional<?> held) {
		held.filter(LockHandle.class::isInstance).map(LockHandle.class::cast).ifPresent(LockHandle::release);
	}

	/**
	 * What one subscription acquired: a hold, or {@code null} when the wait ended;
	 * released once, at the work's end or the subscriber's cancel, whichever comes first.
	 */
	private static final class Held {

		private final LockedCall call;

		final LockHandle handle;

		private final long acquiredAt = System.nanoTime();

		private final AtomicBoolean released = new AtomicBoolean();

		Held(LockedCall call, LockHandle handle) {
			this.call = call;
			this.handle = handle;
		}

		Publisher<?> work(boolean mono) {
			Object returned;
			try {
				returned = (this.handle != null) ? this.call.proceed(true)
						: this.call.notAcquired(mono ? Mono.empty() : Flux.empty());
			}
			catch (Throwable ex) {
				return Mono.error(ex);
			}
			if (returned == null) {
				return Mono.empty();
			}
			if (returned instanceof Publisher<?> publisher) {
				return publisher;
			}
			// What the plain fallback of a Kotlin suspend function returns: its value, or
			// the Flow of one that returns a Flow.
			ReactiveAdapter adapter = mono ? null
					: ReactiveAdapterRegistry.getSharedInstance().getAdapter(returned.getClass());
			return (adapter != null) ? adapter.toPublisher(returned) : Mono.just(returned);
		}

		Mono<Void> release() {
			if (this.handle == null || !this.released.compareAndSet(false, true)) {
				return Mono.empty();
			}
			return Mono.fromFuture(() -> this.call.release(this.handle, this.acquiredAt));
		}

		Mono<Signal<Object>> releaseBefore(Signal<Object> end) {
			return release().then(Mono.just(end)).onErrorResume((failure) -> {
				if (end.isOnError()) {
					end.getThrowable().addSuppressed(this.call.redacted(failure));
					return Mono.just(end);
				}
				return Mono.just(Signal.error(failure));
			});
		}

	}

}
