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
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.Ordered;

import io.github.setnxlock.LockRegistry;

/**
 * The Spring AOP advisor that runs {@link DistributedLock} methods under their locks. Any
 * auto-proxy creator applies it (it needs no AspectJ); the Spring Boot starter registers
 * it with the infrastructure role, as Spring's own transaction advisor is.
 * <p>
 * Its {@link #DEFAULT_ORDER order} puts it outside the transaction advice of
 * {@code @EnableTransactionManagement}'s default order, so a lock is taken before a
 * transaction begins and released after it ends. The pointcut reads each annotation while
 * the beans are created, so a bad annotation fails start-up. It is not meant to be
 * serialized: its state is rebuilt from the application context.
 *
 * @author setnx-lock authors
 */
public class DistributedLockAdvisor extends AbstractPointcutAdvisor implements BeanFactoryAware {

	/**
	 * The default order: just outside advice of the lowest precedence, where
	 * {@code @Transactional} is unless configured otherwise.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private static final long serialVersionUID = 1L;

	private transient volatile UnaryOperator<String> placeholders = UnaryOperator.identity();

	private final transient LockedMethods methods = new LockedMethods((text) -> this.placeholders.apply(text));

	private final transient DistributedLockInterceptor interceptor;

	private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {

		{
			setClassFilter((targetClass) -> DistributedLockAdvisor.this.methods.hasLockedMethods(targetClass));
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return DistributedLockAdvisor.this.methods.find(method, targetClass) != null;
		}

	};

	/**
	 * Create an advisor.
	 * @param registry the registry to take locks from
	 * @param timings decides waits and leases
	 */
	public DistributedLockAdvisor(LockRegistry registry, LockTimings timings) {
		this(() -> registry, () -> timings);
		if (registry == null || timings == null) {
			throw new IllegalArgumentException("registry and timings must not be null");
		}
	}

	/**
	 * Create an advisor that looks up its registry and timings on the first locked call,
	 * so that creating it while the application context starts does not create them
	 * early.
	 * @param registry supplies the registry to take locks from
	 * @param timings supplies what decides waits and leases
	 */
	public DistributedLockAdvisor(Supplier<LockRegistry> registry, Supplier<LockTimings> timings) {
		if (registry == null || timings == null) {
			throw new IllegalArgumentException("registry and timings must not be null");
		}
		this.interceptor = new DistributedLockInterceptor(registry, timings, this.methods);
		setOrder(DEFAULT_ORDER);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.interceptor.setBeanFactory(beanFactory);
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			// Processed ahead of time (for a native image), the build's environment lacks
			// what only the deployment sets: a placeholder it cannot resolve counts as
			// not
			// set then, and is resolved when the application starts.
			boolean aheadOfTime = Boolean.getBoolean("spring.aot.processing");
			this.placeholders = (text) -> {
				String resolved;
				try {
					resolved = configurable.resolveEmbeddedValue(text);
				}
				catch (IllegalArgumentException ex) {
					if (!aheadOfTime) {
						throw ex;
					}
					resolved = null;
				}
				return (resolved != null) ? resolved : "";
			};
		}
	}

	/**
	 * Return the names of the locks of the annotated methods found so far: after the
	 * application context has started, those of every non-lazy bean.
	 * @return the lock names, sorted
	 */
	public Set<String> lockNames() {
		return this.methods.lockNames();
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
