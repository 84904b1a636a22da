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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wraps a registry so that each asynchronous acquisition of its locks reaches its caller
 * only when the test delivers it, and cannot be cancelled on the way: the moment when a
 * hold has been taken in Redis and is on its way to a caller that has already given up.
 *
 * @author setnx-lock authors
 */
final class HeldBackAcquisitions implements UnaryOperator<LockRegistry> {

	private final BlockingQueue<Acquisition> made = new LinkedBlockingQueue<>();

	@Override
	public LockRegistry apply(LockRegistry registry) {
		return wrap(LockRegistry.class, registry);
	}

	/**
	 * Return the next acquisition made through the wrapped registry.
	 * @return the acquisition
	 * @throws InterruptedException if interrupted while none has been made
	 */
	Acquisition next() throws InterruptedException {
		Acquisition next = this.made.poll(10, TimeUnit.SECONDS);
		assertThat(next).as("an acquisition made through the registry").isNotNull();
		return next;
	}

	@SuppressWarnings("unchecked")
	private <T> T wrap(Class<T> type, T target) {
		return (T) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type },
				(proxy, method, arguments) -> {
					Object result;
					try {
						result = method.invoke(target, arguments);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
					if (result instanceof LeasedLock lock) {
						return wrap(LeasedLock.class, lock);
					}
					if (method.getName().equals("acquireAsync")) {
						Acquisition acquisition = new Acquisition((CompletableFuture<Optional<LockHandle>>) result);
						this.made.add(acquisition);
						return acquisition.delivered;
					}
					return result;
				});
	}

	/**
	 * One acquisition: as the registry made it, and as its caller sees it.
	 */
	static final class Acquisition {

		private final CompletableFuture<Optional<LockHandle>> made;

		/** Completed on {@link #deliver()} only: a cancel finds it complete already. */
		private final CompletableFuture<Optional<LockHandle>> delivered = new CompletableFuture<>() {

			@Override
			public boolean cancel(boolean mayInterruptIfRunning) {
				return false;
			}

		};

		Acquisition(CompletableFuture<Optional<LockHandle>> made) {
			this.made = made;
		}

		CompletableFuture<Optional<LockHandle>> made() {
			return this.made;
		}

		void deliver() {
			this.made.whenComplete((held, failure) -> {
				if (failure != null) {
					this.delivered.completeExceptionally(failure);
				}
				else {
					this.delivered.complete(held);
				}
			});
		}

	}

}
