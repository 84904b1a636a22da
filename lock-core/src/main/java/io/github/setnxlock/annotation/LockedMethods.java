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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link DistributedLock} of a method, directly on it or as the meta-annotation
 * of a composed annotation, and reads it once per method and bean class. The pointcut
 * asks while beans are created, so a bad annotation stops start-up and a doubtful
 * duration is logged then, once per method; the interceptor asks again on each call and
 * gets the cached answer.
 *
 * @author setnx-lock authors
 */
final class LockedMethods {

	private static final Log logger = LogFactory.getLog(DistributedLockAdvisor.class);

	/** By the method called and the class of the object called. */
	private final Map<MethodClassKey, Optional<LockedMethod>> cache = new ConcurrentHashMap<>();

	/**
	 * By the method that carries the annotation and the bean's own class: an interface
	 * method and its implementation, or a proxy class and its bean class, share one.
	 */
	private final Map<MethodClassKey, Optional<LockedMethod>> read = new ConcurrentHashMap<>();

	private final UnaryOperator<String> placeholders;

	LockedMethods(UnaryOperator<String> placeholders) {
		this.placeholders = placeholders;
	}

	/**
	 * Return what the annotation of a method means.
	 * @param method the method called, possibly an interface method
	 * @param targetClass the class of the object called, or {@code null}
	 * @return its meaning, or {@code null} when the method has no {@link DistributedLock}
	 */
	LockedMethod find(Method method, Class<?> targetClass) {
		return this.cache.computeIfAbsent(new MethodClassKey(method, targetClass), (key) -> {
			Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
			Class<?> userClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass)
					: specific.getDeclaringClass();
			return this.read.computeIfAbsent(new MethodClassKey(specific, userClass),
					(annotated) -> read(specific, userClass));
		}).orElse(null);
	}

	private Optional<LockedMethod> read(Method method, Class<?> userClass) {
		// Merged, so that a composed annotation's @AliasFor attributes count.
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		if (annotation == null) {
			return Optional.empty();
		}
		LockedMethod locked = LockedMethod.of(method, userClass, annotation, this.placeholders);
		if (!locked.warnings.isEmpty() && logger.isWarnEnabled()) {
			logger.warn(
					"@DistributedLock on " + LockedMethod.describe(method) + ": " + String.join(". ", locked.warnings));
		}
		return Optional.of(locked);
	}

	/**
	 * Whether a class has {@link DistributedLock} methods, reading all of them now, so
	 * that a bad annotation on any of them fails while the bean is created, whichever
	 * kind of proxy is made.
	 * @param targetClass the class of a bean
	 * @return {@code true} if some method is annotated
	 */
	boolean hasLockedMethods(Class<?> targetClass) {
		if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
			return false;
		}
		boolean found = false;
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(targetClass,
				ReflectionUtils.USER_DECLARED_METHODS)) {
			found |= find(method, targetClass) != null;
		}
		return found;
	}

	/**
	 * Return the names of the locks of the methods read so far.
	 * @return the lock names
	 */
	Set<String> lockNames() {
		Set<String> names = new TreeSet<>();
		this.read.values().forEach((locked) -> locked.ifPresent((method) -> names.add(method.name)));
		return names;
	}

}
