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
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What a native image needs to run the {@link DistributedLock} methods of a bean, found
 * while the application is processed ahead of time. In a native image a method is seen by
 * reflection only when it is registered, and the advice works by reflection:
 * <ul>
 * <li>the advisor reads each method's merged annotation at run time, and Spring AOP calls
 * the method itself reflectively: each annotated method is registered for invocation, and
 * the annotation type for the JDK proxy that a merged (meta-annotation) lookup
 * synthesizes;</li>
 * <li>a fallback is looked up by name and called reflectively: every method of the bean's
 * class hierarchy with a fallback's name is registered for invocation, whichever overload
 * {@link LockedMethod} then picks;</li>
 * <li>a key's value must have a {@code toString()} of its own, which the interceptor
 * looks up by reflection: that method is registered for the annotated methods' parameter
 * types and the usual key types, and {@link Object#toString()} so that the lookup ends
 * somewhere for any other type.</li>
 * </ul>
 *
 * @author setnx-lock authors
 */
class DistributedLockAotProcessor implements BeanRegistrationAotProcessor {

	private static final Class<?>[] USUAL_KEY_TYPES = { String.class, Long.class, Integer.class, UUID.class };

	@Override
	public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = registeredBean.getBeanClass();
		Map<Method, DistributedLock> locked = lockedMethods(beanClass);
		if (locked.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> registerHints(generationContext.getRuntimeHints(), beanClass, locked);
	}

	private static Map<Method, DistributedLock> lockedMethods(Class<?> beanClass) {
		if (!AnnotationUtils.isCandidateClass(beanClass, DistributedLock.class)) {
			return Map.of();
		}
		return MethodIntrospector.selectMethods(beanClass,
				(MethodIntrospector.MetadataLookup<DistributedLock>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, DistributedLock.class));
	}

	private static void registerHints(RuntimeHints hints, Class<?> beanClass, Map<Method, DistributedLock> locked) {
		ReflectionHints reflection = hints.reflection();
		hints.proxies().registerJdkProxy(DistributedLock.class);
		Set<Class<?>> keyTypes = new LinkedHashSet<>(Set.of(USUAL_KEY_TYPES));
		locked.forEach((method, annotation) -> {
			reflection.registerMethod(method, ExecutableMode.INVOKE);
			String fallback = annotation.fallback().trim();
			if (annotation.onFailure() == OnLockFailure.FALLBACK && !fallback.isEmpty()) {
				ReflectionUtils.doWithMethods(beanClass,
						(candidate) -> reflection.registerMethod(candidate, ExecutableMode.INVOKE),
						(candidate) -> candidate.getName().equals(fallback));
			}
			for (Class<?> parameterType : method.getParameterTypes()) {
				keyTypes.add(ClassUtils.resolvePrimitiveIfNecessary(parameterType));
			}
		});
		// The advice looks up each key type's toString(); a registered type's methods
		// can be looked up (what Spring 7 means by introspection).
		reflection.registerType(Object.class);
		for (Class<?> keyType : keyTypes) {
			reflection.registerType(keyType);
		}
	}

}
