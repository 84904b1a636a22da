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

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

import io.github.setnxlock.LockNotAcquiredException;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native image can call the fallbacks and the annotated methods of a bean with
 * {@link DistributedLock} methods, read their annotations, and check a key's
 * {@code toString()}: the processor's contribution, applied as Spring's AOT processing
 * applies it, registers them, and the processor is found where that processing looks.
 *
 * @author setnx-lock authors
 */
class DistributedLockAotProcessorTests {

	@Test
	void everyFallbackOverloadIsRegisteredForInvocation() {
		RuntimeHints hints = process(Jobs.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(method(Jobs.class, "busy", String.class, LockNotAcquiredException.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Jobs.class, "busy", String.class)))
			.accepts(hints);
	}

	@Test
	void aFallbackInheritedFromASuperclassIsRegisteredForInvocation() {
		RuntimeHints hints = process(SubclassJobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(BaseJobs.class, "inherited")))
			.accepts(hints);
	}

	@Test
	void annotatedMethodsAreRegisteredForInvocationAndTheirAnnotationForAProxy() {
		RuntimeHints hints = process(Jobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Jobs.class, "run", String.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Jobs.class, "skip"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(DistributedLock.class)).accepts(hints);
	}

	@Test
	void theFallbackOfAComposedAnnotationIsRegisteredForInvocation() {
		RuntimeHints hints = process(ComposedJobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(ComposedJobs.class, "run")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(ComposedJobs.class, "later")))
			.accepts(hints);
	}

	@Test
	void methodsThatAreNotFallbacksAreLeftAlone() {
		RuntimeHints hints = process(Jobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Jobs.class, "unrelated")))
			.rejects(hints);
	}

	@Test
	void keyExpressionsCanReadTheArgumentsPropertiesAndTheRootObject() {
		RuntimeHints hints = process(Jobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Key.class, "id"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(method(DistributedLockInterceptor.KeyRoot.class, "args"))).accepts(hints);
	}

	@Test
	void anAnnotationOnAnInterfaceMethodIsReadableAndItsMethodInvocable() {
		RuntimeHints hints = process(InterfaceJobs.class);
		assertThat(RuntimeHintsPredicates.reflection().onType(LockedJobs.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(LockedJobs.class, "run")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(InterfaceJobs.class, "run")))
			.accepts(hints);
	}

	@Test
	void aComposedAnnotationCanBeSynthesizedAndRead() {
		RuntimeHints hints = process(ComposedJobs.class);
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(JobLock.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(JobLock.class)).accepts(hints);
	}

	@Test
	void aBeanWithoutLockedMethodsContributesNothing() {
		assertThat(contribution(String.class)).isNull();
		assertThat(contribution(BaseJobs.class)).isNull();
	}

	@Test
	void theProcessorIsListedInAotFactories() {
		List<BeanRegistrationAotProcessor> processors = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories")
			.load(BeanRegistrationAotProcessor.class);
		assertThat(processors).hasAtLeastOneElementOfType(DistributedLockAotProcessor.class);
	}

	private static RuntimeHints process(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = contribution(beanClass);
		assertThat(contribution).isNotNull();
		GenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(DistributedLockAotProcessorTests.class)),
				new InMemoryGeneratedFiles());
		// The contribution only registers hints; it writes no registration code.
		contribution.applyTo(generationContext, null);
		return generationContext.getRuntimeHints();
	}

	private static BeanRegistrationAotContribution contribution(Class<?> beanClass) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
		return new DistributedLockAotProcessor().processAheadOfTime(RegisteredBean.of(beanFactory, "bean"));
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).as(type.getSimpleName() + "." + name).isNotNull();
		return method;
	}

	static class Jobs {

		@DistributedLock(key = "#id", onFailure = OnLockFailure.FALLBACK, fallback = "busy")
		public String run(String id) {
			return "ran " + id;
		}

		@DistributedLock(onFailure = OnLockFailure.SKIP)
		public Optional<String> skip() {
			return Optional.of("ran");
		}

		@DistributedLock(key = "#key")
		public void keyed(Key key) {
		}

		String busy(String id, LockNotAcquiredException ex) {
			return "busy " + id;
		}

		String busy(String id) {
			return "busy " + id;
		}

		String unrelated() {
			return "unrelated";
		}

	}

	static class BaseJobs {

		String inherited() {
			return "busy";
		}

	}

	static class SubclassJobs extends BaseJobs {

		@DistributedLock(onFailure = OnLockFailure.FALLBACK, fallback = "inherited")
		public String run() {
			return "ran";
		}

	}

	record Key(String id) {

	}

	interface LockedJobs {

		@DistributedLock
		String run();

	}

	static class InterfaceJobs implements LockedJobs {

		@Override
		public String run() {
			return "ran";
		}

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(onFailure = OnLockFailure.FALLBACK, fallback = "later")
	@interface JobLock {

	}

	static class ComposedJobs {

		@JobLock
		public String run() {
			return "ran";
		}

		String later() {
			return "later";
		}

	}

}
