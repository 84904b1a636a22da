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

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import io.github.setnxlock.LockHandle;

/**
 * {@link DistributedLock} on a method that returns a Reactor {@code Mono} or
 * {@code Flux}: the call returns a publisher at once, which takes the lock when it is
 * subscribed (without a thread waiting), makes the method's own call once the lock is
 * held, and releases the lock when that publisher terminates, or after its subscriber
 * cancels once the work has given back the calls made into it ({@link WorkUnderHold} says
 * how far that follows the work). A publisher nobody subscribes to takes no lock and
 * never calls the method; one subscribed twice calls it twice, each time under the lock.
 * <p>
 * A release that finds the lock lost fails a publisher that completed with
 * {@link io.github.setnxlock.LockLostException}. When the lock cannot be had, the
 * annotation's {@link OnLockFailure} applies at subscription: an error, an empty
 * publisher, or the fallback's publisher. A subscriber that cancels while the lock is on
 * its way gets no call of the method, and a hold that arrives after that is released
 * without the annotation's {@code holdAtLeast}. Loaded only for such methods, so Reactor
 * is needed only by applications that return its types.
 * <p>
 * A Kotlin {@code suspend} function is held the same way ({@link SuspendFunctions}): the
 * {@code Mono} that Spring makes of its run is subscribed when the caller's coroutine
 * awaits it, and cancelling that coroutine cancels the subscription, which cancels the
 * function's coroutine.
 *
 * @author setnx-lock authors
 */
final class LockedPublishers {

	private LockedPublishers() {
	}

	static Object call(LockedCall call) {
		boolean mono = call.method().kind == LockedMethod.Kind.MONO;
		Flux<Object> locked = Mono.fromFuture(call::acquire, false)
			.doOnDiscard(Optional.class, LockedPublishers::releaseDiscarded)
			.flatMapMany((acquired) -> {
				LockHandle handle = acquired.orElse(null);
				Flux<Object> work = Flux.defer(() -> Flux.from(work(call, handle, mono)));
				if (handle == null) {
					return work;
				}
				long acquiredAt = System.nanoTime();
				return WorkUnderHold.run(work, () -> call.release(handle, acquiredAt), call::redacted);
			})
			.onErrorMap(call::redacted);
		return mono ? locked.singleOrEmpty() : locked;
	}

	/**
	 * A hold that reaches a subscriber that left: the method did not run, so the hold is
	 * released without {@code holdAtLeast}.
	 */
	private static void releaseDiscarded(Optional<?> held) {
		held.filter(LockHandle.class::isInstance).map(LockHandle.class::cast).ifPresent(LockHandle::release);
	}

	/**
	 * The method's own publisher, under the hold; or, without one, what the annotation
	 * says to do.
	 */
	private static Publisher<?> work(LockedCall call, LockHandle handle, boolean mono) {
		Object returned;
		try {
			returned = (handle != null) ? call.proceed(true) : call.notAcquired(mono ? Mono.empty() : Flux.empty());
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

}
