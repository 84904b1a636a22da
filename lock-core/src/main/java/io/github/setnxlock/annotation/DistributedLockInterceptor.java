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
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.util.ObjectUtils;
import org.springframework.util.function.SingletonSupplier;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.LockRegistry;

/**
 * Runs a {@link DistributedLock} method under its lock: resolve the key, acquire, call,
 * release, and map a lock that could not be had to the annotation's
 * {@link OnLockFailure}. Everything about the annotation itself was read beforehand
 * ({@link LockedMethod}).
 *
 * @author setnx-lock authors
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final Supplier<LockRegistry> registry;

	private final Supplier<LockTimings> timings;

	private final LockedMethods methods;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private volatile BeanFactory beanFactory;

	DistributedLockInterceptor(Supplier<LockRegistry> registry, Supplier<LockTimings> timings, LockedMethods methods) {
		this.registry = SingletonSupplier.of(registry);
		this.timings = SingletonSupplier.of(timings);
		this.methods = methods;
	}

	void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : null;
		LockedMethod locked = this.methods.find(invocation.getMethod(), targetClass);
		if (locked == null) {
			return invocation.proceed();
		}
		String key = lockKey(locked, target, invocation.getArguments());
		LeasedLock lock = this.registry.get().obtain(key, locked.name);
		LockTimings timings = this.timings.get();
		Duration wait = timings.waitTime(locked.name, locked.waitTime);
		Duration lease = timings.leaseTime(locked.name, locked.leaseTime);
		if (locked.kind != LockedMethod.Kind.PLAIN) {
			LockedCall call = new LockedCall(locked, lock, wait, lease, invocation);
			return (locked.kind == LockedMethod.Kind.STAGE) ? LockedStages.call(call) : LockedPublishers.call(call);
		}
		boolean acquired;
		try {
			acquired = (lease != null) ? lock.tryLock(wait, lease) : lock.tryLock(wait);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw LockNotAcquiredException.ofMethod(locked.name, LockedMethod.describe(locked.method), key, wait,
					KeyRedaction.redact((Throwable) ex, key, locked));
		}
		catch (RuntimeException ex) {
			throw KeyRedaction.redact(ex, key, locked);
		}
		if (!acquired) {
			return notAcquired(locked, target, invocation.getArguments(), key, wait, locked.skippedResult(),
					(locked.onFailure != OnLockFailure.SKIP) ? lock.holder() : null);
		}
		long acquiredAt = System.nanoTime();
		if (locked.interruptOnLoss) {
			lock.interruptOnLoss();
		}
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			try {
				release(lock, locked, acquiredAt);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(KeyRedaction.redact(releaseFailure, key, locked));
			}
			throw ex;
		}
		try {
			release(lock, locked, acquiredAt);
		}
		catch (RuntimeException ex) {
			throw KeyRedaction.redact(ex, key, locked);
		}
		return result;
	}

	private String lockKey(LockedMethod locked, Object target, Object[] arguments) {
		if (locked.key == null) {
			return locked.name;
		}
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
				new KeyRoot(locked.method, target, arguments), locked.method, arguments, this.parameterNames);
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		Object value;
		String text;
		try {
			value = locked.key.getValue(context);
			text = rendered(value);
		}
		catch (RuntimeException ex) {
			// What the expression or a toString() threw may quote an argument's value, so
			// it is only the cause, and the message names the expression and the method.
			String reason = (ex instanceof SpelEvaluationException spel) ? spel.getMessageCode().name()
					: ex.getClass().getName();
			throw new IllegalArgumentException("Could not evaluate key '" + locked.keyText + "' of @DistributedLock on "
					+ LockedMethod.describe(locked.method) + " (" + reason + ")", ex);
		}
		if (value != null && text == null) {
			// Object.toString() names the instance, so equal values would never contend.
			throw new IllegalArgumentException(keyProblem(locked) + "evaluated to a " + value.getClass().getName()
					+ ", which has no toString() of its own; use one of its properties, such as its id");
		}
		if (text == null || text.isEmpty()) {
			throw new IllegalArgumentException(keyProblem(locked) + "evaluated to " + ((text == null) ? "null" : "''"));
		}
		return locked.name + ":" + text;
	}

	/**
	 * Return the text of a key's value: an array's elements, or what its own
	 * {@code toString()} says; {@code null} for {@code null} or an object without one.
	 */
	private static String rendered(Object value) {
		if (value == null) {
			return null;
		}
		if (value.getClass().isArray()) {
			return ObjectUtils.nullSafeToString(value);
		}
		String text = value.toString();
		return isObjectsToString(value, text) ? null : text;
	}

	/**
	 * Whether a text is what {@link Object#toString()} gives for a value: told from the
	 * text rather than by looking the method up, so that it needs no reflection (in a
	 * native image either).
	 */
	private static boolean isObjectsToString(Object value, String text) {
		String type = value.getClass().getName();
		return text.startsWith(type) && text.equals(type + "@" + Integer.toHexString(value.hashCode()));
	}

	private static String keyProblem(LockedMethod locked) {
		return "Key '" + locked.keyText + "' of @DistributedLock on " + LockedMethod.describe(locked.method) + " ";
	}

	/**
	 * Answer a call whose lock could not be had, as the annotation's
	 * {@link OnLockFailure} says.
	 * @param skipped what a skipped call returns
	 */
	static Object notAcquired(LockedMethod locked, Object target, Object[] arguments, String key, Duration wait,
			Object skipped, String holder) throws Throwable {
		LockNotAcquiredException failure = LockNotAcquiredException.ofMethod(locked.name,
				LockedMethod.describe(locked.method), key, wait, null, holder);
		if (locked.onFailure == OnLockFailure.SKIP && logger.isDebugEnabled()) {
			// The key may hold the call's arguments: the name stands for it.
			logger.debug("Skipped " + LockedMethod.describe(locked.method) + ": lock '" + locked.name
					+ "' was held elsewhere for the whole wait of " + wait);
		}
		return switch (locked.onFailure) {
			case THROW -> throw failure;
			case SKIP -> skipped;
			case FALLBACK -> SuspendFunctions.isSuspending(locked.method)
					? SuspendFunctions.callFallback(locked.fallback, target, arguments, failure)
					: callFallback(locked.fallback, target, arguments, failure);
		};
	}

	private static Object callFallback(Method fallback, Object target, Object[] arguments,
			LockNotAcquiredException failure) throws Throwable {
		Object[] fallbackArguments = arguments;
		if (fallback.getParameterCount() == arguments.length + 1) {
			fallbackArguments = Arrays.copyOf(arguments, arguments.length + 1);
			fallbackArguments[arguments.length] = failure;
		}
		try {
			return fallback.invoke(target, fallbackArguments);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private static void release(LeasedLock lock, LockedMethod locked, long acquiredAt) {
		if (locked.holdAtLeast != null) {
			long leftMillis = locked.holdAtLeast.minusNanos(System.nanoTime() - acquiredAt).toMillis();
			if (leftMillis > 0) {
				lock.unlockKeepingFor(Duration.ofMillis(leftMillis));
				return;
			}
		}
		lock.unlock();
	}

	/**
	 * The root object of key expressions: {@code #root.method}, {@code #root.target},
	 * {@code #root.args}.
	 *
	 * @param method the annotated method
	 * @param target the object called
	 * @param args the arguments
	 */
	public record KeyRoot(Method method, Object target, Object[] args) {

	}

}
