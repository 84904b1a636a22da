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
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link DistributedLock} of a method and reads it once per method and target
 * class. The pointcut asks while beans are created, so a bad annotation stops start-up;
 * the interceptor asks again on each call and gets the cached answer.
 *
 * @author setnx-lock authors
 */
final class LockedMethods {

	private final Map<MethodClassKey, Optional<LockedMethod>> cache = new ConcurrentHashMap<>();

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
			DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
			return Optional
				.ofNullable((annotation != null) ? LockedMethod.of(specific, annotation, this.placeholders) : null);
		}).orElse(null);
	}

}
