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

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
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
 * <li>the advisor reads each method's merged annotation at run time, where it may sit on
 * an interface or superclass method the bean's method implements or overrides, and Spring
 * AOP calls the method reflectively: the annotated method and every method of the bean's
 * class hierarchy and interfaces it stands for are registered for invocation, their types
 * registered, and the annotation types for the JDK proxies a merged lookup synthesizes
 * ({@link DistributedLock} and the application's own composed annotations);</li>
 * <li>a fallback is looked up by name and called reflectively: every method of the bean's
 * class hierarchy with a fallback's name is registered for invocation, whichever overload
 * {@link LockedMethod} then picks;</li>
 * <li>a key expression reads the arguments' properties ({@code #order.id}) and the root
 * object ({@code #root.args}): the parameter types are registered for data binding (their
 * properties, and the types those lead to), and the root object's accessors for
 * invocation.</li>
 * </ul>
 * Keys whose expressions reach types that no parameter leads to (a bean's result, a
 * static method) need the application's own hints.
 *
 * @author setnx-lock authors
 */
class DistributedLockAotProcessor implements BeanRegistrationAotProcessor {

	private final BindingReflectionHintsRegistrar bindingHints = new BindingReflectionHintsRegistrar();

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

	private void registerHints(RuntimeHints hints, Class<?> beanClass, Map<Method, DistributedLock> locked) {
		ReflectionHints reflection = hints.reflection();
		hints.proxies().registerJdkProxy(DistributedLock.class);
		reflection.registerType(DistributedLockInterceptor.KeyRoot.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		Set<Class<?>> parameterTypes = new LinkedHashSet<>();
		locked.forEach((method, annotation) -> {
			for (Method declared : declarationsOf(method, beanClass)) {
				reflection.registerType(declared.getDeclaringClass());
				reflection.registerMethod(declared, ExecutableMode.INVOKE);
				for (Annotation composed : declared.getAnnotations()) {
					if (composed.annotationType() != DistributedLock.class && AnnotationUtils
						.isAnnotationMetaPresent(composed.annotationType(), DistributedLock.class)) {
						reflection.registerType(composed.annotationType(), MemberCategory.INVOKE_DECLARED_METHODS);
						hints.proxies().registerJdkProxy(composed.annotationType());
					}
				}
			}
			String fallback = annotation.fallback().trim();
			if (annotation.onFailure() == OnLockFailure.FALLBACK && !fallback.isEmpty()) {
				ReflectionUtils.doWithMethods(beanClass,
						(candidate) -> reflection.registerMethod(candidate, ExecutableMode.INVOKE),
						(candidate) -> candidate.getName().equals(fallback));
			}
			parameterTypes.addAll(List.of(method.getParameterTypes()));
		});
		this.bindingHints.registerReflectionHints(reflection, parameterTypes.toArray(Type[]::new));
	}

	/**
	 * Return a method and the methods of the class hierarchy and interfaces it implements
	 * or overrides: where the advisor may find its annotation.
	 */
	private static Set<Method> declarationsOf(Method method, Class<?> beanClass) {
		Set<Method> declarations = new LinkedHashSet<>();
		declarations.add(method);
		Set<Class<?>> types = new LinkedHashSet<>(ClassUtils.getAllInterfacesForClassAsSet(beanClass));
		for (Class<?> type = beanClass; type != null && type != Object.class; type = type.getSuperclass()) {
			types.add(type);
		}
		for (Class<?> type : types) {
			try {
				declarations.add(type.getDeclaredMethod(method.getName(), method.getParameterTypes()));
			}
			catch (NoSuchMethodException ex) {
				// Not declared on this type.
			}
		}
		return declarations;
	}

}
