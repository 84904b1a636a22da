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

import java.lang.reflect.Method;
import java.util.Arrays;

import io.github.setnxlock.LockNotAcquiredException;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.Nullness;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * {@link DistributedLock} on a Kotlin {@code suspend} function. With
 * kotlinx-coroutines-reactor present, Spring's AOP runs the whole of such a function as a
 * Reactor publisher: the innermost {@code proceed()} starts no coroutine but returns a
 * {@code Mono} (a {@code Flux} for a function that returns a {@code Flow}) that runs it
 * when subscribed, and the proxy awaits whatever {@code Mono} the advice returns in the
 * caller's coroutine (or turns its publisher into the {@code Flow}). So the lock is held
 * as for a method that returns a {@code Mono}: from when the coroutine starts to when it
 * completes or fails. Cancelling the caller's coroutine cancels the function's, which
 * Spring runs in the caller's context minus its job: its cancellation ({@code finally}
 * blocks) runs later on the caller's dispatcher, where the library cannot see it end, so
 * the lock is released once the cancel has been passed on ({@link WorkUnderHold}).
 * Without that library Spring calls the function as a plain method, which returns at its
 * first suspension, so such a function is refused.
 * <p>
 * Nothing here touches a Kotlin class, so lock-core needs no Kotlin to load it.
 *
 * @author setnx-lock authors
 */
final class SuspendFunctions {

	private static final String CONTINUATION = "kotlin.coroutines.Continuation";

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	private SuspendFunctions() {
	}

	/**
	 * Whether a method is what the Kotlin compiler makes of a {@code suspend} function:
	 * told by name, so that it is recognised where Kotlin is missing from Spring's class
	 * loader too.
	 */
	static boolean isSuspending(Method method) {
		Class<?>[] parameters = method.getParameterTypes();
		return parameters.length > 0 && parameters[parameters.length - 1].getName().equals(CONTINUATION);
	}

	/**
	 * Decide how a suspend function's run is held.
	 * @return {@link LockedMethod.Kind#FLUX} for a function that returns a {@code Flow},
	 * {@link LockedMethod.Kind#MONO} for any other
	 * @throws IllegalArgumentException when Spring would not run it as a publisher, or it
	 * returns a publisher itself
	 */
	static LockedMethod.Kind kind(Method method) {
		// What Spring's proxies test before they await the advice's Mono (AopUtils and
		// CglibAopProxy look for the same class through their own class loader).
		boolean reactor = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", AopUtils.class.getClassLoader());
		if (!reactor || !KotlinDetector.isSuspendingFunction(method) || !KotlinDetector.isKotlinReflectPresent()) {
			throw new IllegalArgumentException("it is a Kotlin suspend function, which @DistributedLock locks only"
					+ " when Spring runs it as a Mono: add org.jetbrains.kotlinx:kotlinx-coroutines-reactor"
					+ " (and kotlin-reflect) to the application");
		}
		Class<?> returned = returnType(method);
		if (returned.getName().equals(FLOW)) {
			return LockedMethod.Kind.FLUX;
		}
		if (returned.getName().startsWith("reactor.core.publisher.")
				|| returned.getName().equals("org.reactivestreams.Publisher")) {
			throw new IllegalArgumentException("it is a suspend function that returns " + returned.getName()
					+ ", which Spring's proxy would await as its value; return the value, or the publisher from a"
					+ " function that does not suspend");
		}
		return LockedMethod.Kind.MONO;
	}

	/**
	 * Check that a skipped call may complete with {@code null}, which is what Spring's
	 * proxy makes of the empty {@code Mono} of a skipped call.
	 */
	static void checkSkip(Method method, LockedMethod.Kind kind) {
		Class<?> returned = returnType(method);
		if (kind == LockedMethod.Kind.MONO && returned != void.class
				&& Nullness.forMethodReturnType(method) != Nullness.NULLABLE) {
			throw new IllegalArgumentException("onFailure SKIP would complete this suspend function with null, and"
					+ " it returns a non-null " + returned.getSimpleName() + "; declare " + returned.getSimpleName()
					+ "? or Unit, or use THROW or FALLBACK");
		}
	}

	/**
	 * Find a fallback for a suspend function: a {@code suspend} one or a plain one, each
	 * with the function's own parameters, optionally followed by the
	 * {@link LockNotAcquiredException}.
	 * @return the fallback
	 * @throws IllegalArgumentException when none is found or what it returns does not fit
	 */
	static Method fallback(Method method, Class<?> userClass, String name) {
		Class<?>[] parameters = method.getParameterTypes();
		Class<?> continuation = parameters[parameters.length - 1];
		Class<?>[] values = Arrays.copyOf(parameters, parameters.length - 1);
		Class<?>[][] candidates = { append(values, LockNotAcquiredException.class, continuation),
				append(values, continuation), append(values, LockNotAcquiredException.class), values };
		for (Class<?>[] candidate : candidates) {
			Method fallback = ReflectionUtils.findMethod(userClass, name, candidate);
			if (fallback != null) {
				Class<?> declared = returnType(method);
				Class<?> given = isSuspending(fallback) ? returnType(fallback) : fallback.getReturnType();
				if (declared != void.class && !ClassUtils.isAssignable(declared, given)) {
					throw new IllegalArgumentException("fallback method '" + name + "' returns " + given.getName()
							+ ", which " + method.getName() + " cannot return as " + declared.getName());
				}
				ReflectionUtils.makeAccessible(fallback);
				return fallback;
			}
		}
		throw new IllegalArgumentException("fallback method '" + name + "' with parameters " + Arrays.toString(values)
				+ " (optionally followed by LockNotAcquiredException), suspending or not, not found in "
				+ userClass.getName());
	}

	/**
	 * Call a suspend function's fallback: a suspending one through Spring, which runs it
	 * as a publisher in the caller's coroutine context, as it does the function itself.
	 * @param arguments the function's arguments, its continuation last
	 * @return a publisher, for a suspending fallback; what it returned, for a plain one
	 */
	static Object callFallback(Method fallback, Object target, Object[] arguments, LockNotAcquiredException failure)
			throws Throwable {
		int values = arguments.length - 1;
		Object[] given;
		if (isSuspending(fallback)) {
			given = (fallback.getParameterCount() == arguments.length) ? arguments
					: append(Arrays.copyOf(arguments, values), failure, arguments[values]);
		}
		else {
			given = (fallback.getParameterCount() == values) ? Arrays.copyOf(arguments, values)
					: append(Arrays.copyOf(arguments, values), failure);
		}
		return AopUtils.invokeJoinpointUsingReflection(target, fallback, given);
	}

	/**
	 * The Kotlin return type of a suspend function, {@code void} for {@code Unit}.
	 */
	private static Class<?> returnType(Method method) {
		return new MethodParameter(method, -1).getParameterType();
	}

	@SafeVarargs
	private static <T> T[] append(T[] first, T... more) {
		T[] all = Arrays.copyOf(first, first.length + more.length);
		System.arraycopy(more, 0, all, first.length, more.length);
		return all;
	}

}
