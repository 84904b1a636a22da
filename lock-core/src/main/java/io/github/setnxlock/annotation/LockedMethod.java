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
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LockNotAcquiredException;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What a {@link DistributedLock} annotation on one method means, read and checked once
 * when the method's bean is created: its name, its parsed key expression, its durations
 * and what to do when the lock cannot be had.
 *
 * @author setnx-lock authors
 */
final class LockedMethod {

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	/**
	 * Finds the names the key's evaluation gives the arguments, as the interceptor does.
	 */
	private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	final Method method;

	final String name;

	final Expression key;

	final String keyText;

	final Duration waitTime;

	final Duration leaseTime;

	final Duration holdAtLeast;

	final OnLockFailure onFailure;

	final Method fallback;

	final boolean interruptOnLoss;

	/** What deserves a warning at start-up, one sentence each; empty when nothing. */
	final List<String> warnings;

	/** What the method returns, which decides how long the lock is held. */
	final Kind kind;

	private LockedMethod(Method method, String name, Expression key, String keyText, LockDurations durations,
			OnLockFailure onFailure, Method fallback, boolean interruptOnLoss, Kind kind) {
		this.method = method;
		this.name = name;
		this.key = key;
		this.keyText = keyText;
		this.waitTime = durations.waitTime();
		this.leaseTime = durations.leaseTime();
		this.holdAtLeast = durations.holdAtLeast();
		this.warnings = durations.warnings();
		this.onFailure = onFailure;
		this.fallback = fallback;
		this.interruptOnLoss = interruptOnLoss;
		this.kind = kind;
	}

	/**
	 * Read an annotation.
	 * @param method the annotated method, as declared by the target class
	 * @param userClass the class of the bean, without proxy subclasses
	 * @param annotation its annotation, possibly merged from a composed annotation
	 * @param placeholders resolves {@code ${...}} in durations
	 * @return the checked meaning
	 * @throws InvalidDistributedLockException naming the method when the annotation is
	 * not usable
	 */
	static LockedMethod of(Method method, Class<?> userClass, DistributedLock annotation,
			UnaryOperator<String> placeholders) {
		try {
			checkInterceptable(method);
			Kind kind = Kind.of(method);
			if (kind != Kind.PLAIN && annotation.interruptOnLoss()) {
				throw new IllegalArgumentException("interruptOnLoss needs a thread that holds the lock, and "
						+ method.getReturnType().getSimpleName()
						+ " work runs on no thread of its own; call LockHandle.checkHeld() in the work instead");
			}
			String name = annotation.name().isBlank() ? userClass.getSimpleName() + "." + method.getName()
					: annotation.name().trim();
			Expression key = null;
			if (!annotation.key().isBlank()) {
				try {
					key = parser.parseExpression(annotation.key());
				}
				catch (ParseException ex) {
					throw new IllegalArgumentException(
							"key '" + annotation.key() + "' is not a valid SpEL expression: " + ex.getMessage(), ex);
				}
				KeyVariables.check(key, annotation.key(), method.getParameterCount(),
						parameterNames.getParameterNames(method));
			}
			LockDurations durations = LockDurations.read(annotation, placeholders);
			Method fallback = fallback(method, userClass, annotation, kind);
			return new LockedMethod(method, name, key, annotation.key(), durations, annotation.onFailure(), fallback,
					annotation.interruptOnLoss(), kind);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidDistributedLockException(describe(method), ex);
		}
	}

	private static void checkInterceptable(Method method) {
		int modifiers = method.getModifiers();
		String problem = Modifier.isStatic(modifiers) ? "static"
				: Modifier.isPrivate(modifiers) ? "private" : Modifier.isFinal(modifiers) ? "final" : null;
		if (problem != null) {
			throw new InvalidDistributedLockException.Problem(
					"the method is " + problem
							+ ", so a Spring proxy cannot intercept it and it would run without the lock",
					"Make " + method.getName() + " neither private, static nor final, and call it on the bean Spring"
							+ " injects (a call through 'this' is not locked either); or remove @DistributedLock"
							+ " from it.");
		}
	}

	private static Method fallback(Method method, Class<?> userClass, DistributedLock annotation, Kind kind) {
		String fallbackName = annotation.fallback().trim();
		OnLockFailure onFailure = annotation.onFailure();
		boolean suspending = SuspendFunctions.isSuspending(method);
		if (onFailure == OnLockFailure.SKIP && suspending) {
			SuspendFunctions.checkSkip(method, kind);
		}
		if (onFailure == OnLockFailure.SKIP && method.getReturnType().isPrimitive()
				&& method.getReturnType() != void.class) {
			throw new IllegalArgumentException("onFailure SKIP cannot skip a method that returns "
					+ method.getReturnType() + "; return a wrapper type or Optional, or use THROW or FALLBACK");
		}
		if (onFailure != OnLockFailure.FALLBACK) {
			if (!fallbackName.isEmpty()) {
				throw new IllegalArgumentException(
						"fallback '" + fallbackName + "' is set but onFailure is " + onFailure + ", not FALLBACK");
			}
			return null;
		}
		if (fallbackName.isEmpty()) {
			throw new IllegalArgumentException("onFailure FALLBACK needs the name of a fallback method");
		}
		if (suspending) {
			return SuspendFunctions.fallback(method, userClass, fallbackName);
		}
		Class<?>[] parameters = method.getParameterTypes();
		Class<?>[] withException = Arrays.copyOf(parameters, parameters.length + 1);
		withException[parameters.length] = LockNotAcquiredException.class;
		Method fallback = ReflectionUtils.findMethod(userClass, fallbackName, withException);
		if (fallback == null) {
			fallback = ReflectionUtils.findMethod(userClass, fallbackName, parameters);
		}
		if (fallback == null) {
			throw new IllegalArgumentException(
					"fallback method '" + fallbackName + "' with parameters " + Arrays.toString(parameters)
							+ " (optionally followed by LockNotAcquiredException) not found in " + userClass.getName());
		}
		if (!returnFits(method.getReturnType(), fallback.getReturnType())) {
			throw new IllegalArgumentException(
					"fallback method '" + fallbackName + "' returns " + fallback.getReturnType().getName() + ", which "
							+ method.getName() + " cannot return as " + method.getReturnType().getName());
		}
		ReflectionUtils.makeAccessible(fallback);
		return fallback;
	}

	private static boolean returnFits(Class<?> declared, Class<?> fallback) {
		if (declared == void.class) {
			return true;
		}
		return ClassUtils.isAssignable(declared, fallback);
	}

	/**
	 * Return what a skipped call of a method that returns at once returns.
	 * @return {@code null}, or an empty {@link Optional}
	 */
	Object skippedResult() {
		return (this.method.getReturnType() == Optional.class) ? Optional.empty() : null;
	}

	/**
	 * What a locked method returns, and so how long its lock is held.
	 */
	enum Kind {

		/** Returns when its work is done: the lock is held for the call. */
		PLAIN,

		/**
		 * Returns a {@link CompletionStage}: the lock is held from the call until the
		 * stage completes.
		 */
		STAGE,

		/**
		 * Returns a Reactor {@code Mono}, or is a Kotlin suspend function that Spring
		 * runs as one: the lock is held from subscription to its end.
		 */
		MONO,

		/**
		 * Returns a Reactor {@code Flux}, or is a Kotlin suspend function that returns a
		 * {@code Flow}: the lock is held from subscription to its end.
		 */
		FLUX;

		static Kind of(Method method) {
			Class<?> type = method.getReturnType();
			if (SuspendFunctions.isSuspending(method)) {
				return SuspendFunctions.kind(method);
			}
			if (type == CompletionStage.class || type == CompletableFuture.class) {
				return STAGE;
			}
			if (type.getName().equals("reactor.core.publisher.Mono")) {
				return MONO;
			}
			if (type.getName().equals("reactor.core.publisher.Flux")) {
				return FLUX;
			}
			if (CompletionStage.class.isAssignableFrom(type)) {
				throw new IllegalArgumentException("it returns " + type.getName()
						+ ", a CompletionStage the lock's advice cannot create; declare CompletionStage or"
						+ " CompletableFuture");
			}
			if (Future.class.isAssignableFrom(type)
					|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null) {
				throw new IllegalArgumentException("it returns " + type.getName()
						+ ", whose end the lock's advice cannot follow, so the lock would end before the work does;"
						+ " return a CompletableFuture, a CompletionStage, a Mono or a Flux");
			}
			return PLAIN;
		}

	}

	static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName() + "("
				+ String.join(", ", Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toList()) + ")";
	}

	@Override
	public String toString() {
		return "LockedMethod[" + this.name + ", " + describe(this.method) + "]";
	}

}
