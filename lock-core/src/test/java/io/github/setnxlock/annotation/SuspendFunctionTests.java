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

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import io.github.setnxlock.LockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Kotlin {@code suspend} function under {@link DistributedLock} is refused at start-up
 * with a message naming it and what to add when kotlinx-coroutines-reactor is missing:
 * Spring's AOP then calls it as a plain method, so the advice would see the call end at
 * its first suspension, not when the function ends (docs/async.md). With that library,
 * lock-kotlin's tests lock such functions from Kotlin.
 * <p>
 * This module's tests have no Kotlin: what the Kotlin compiler makes of a suspend
 * function, a method whose last parameter is a {@code kotlin.coroutines.Continuation}, is
 * compiled here from Java into a folder of its own, with a stand-in for that interface,
 * and loaded by a class loader of its own, so the stand-in can never shadow the real one
 * elsewhere. Refused at start-up, the bean never takes a lock, so no Redis is needed.
 *
 * @author setnx-lock authors
 */
class SuspendFunctionTests {

	@Test
	void aSuspendFunctionFailsStartUpNamingIt(@TempDir Path directory) throws Exception {
		Path sources = Files.createDirectories(directory.resolve("sources"));
		Path classes = Files.createDirectories(directory.resolve("classes"));
		Path continuation = write(sources.resolve("Continuation.java"), """
				package kotlin.coroutines;

				public interface Continuation<T> {
				}
				""");
		Path work = write(sources.resolve("SuspendingWork.java"), """
				package suspending;

				import io.github.setnxlock.annotation.DistributedLock;
				import kotlin.coroutines.Continuation;

				public class SuspendingWork {

					// What `suspend fun charge(id: String): String` compiles to.
					@DistributedLock(name = "work", key = "#p0")
					public Object charge(String id, Continuation<? super String> continuation) {
						return "charged " + id;
					}

				}
				""");
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		int status = compiler.run(null, null, null, "-d", classes.toString(), "-classpath",
				System.getProperty("java.class.path"), continuation.toString(), work.toString());
		assertThat(status).as("compilation of the stand-in suspend function").isZero();
		try (URLClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				getClass().getClassLoader())) {
			Class<?> bean = loader.loadClass("suspending.SuspendingWork");
			assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> start(loader, bean))
				.satisfies((ex) -> assertThat(StartUpFailures.causes(ex)).anySatisfy((cause) -> assertThat(cause)
					.contains("suspending.SuspendingWork.charge(String, Continuation): it is a Kotlin suspend"
							+ " function, which @DistributedLock locks only when Spring runs it as a Mono: add"
							+ " org.jetbrains.kotlinx:kotlinx-coroutines-reactor")));
		}
	}

	private static Path write(Path file, String source) throws Exception {
		return Files.writeString(file, source);
	}

	private static void start(ClassLoader loader, Class<?> bean) {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.setClassLoader(loader);
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(context);
			context.registerBean("distributedLockAdvisor", DistributedLockAdvisor.class,
					() -> new DistributedLockAdvisor(SuspendFunctionTests::noRegistry,
							() -> LockTimings.withDefaultWait(Duration.ofSeconds(1))),
					(definition) -> definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE));
			context.registerBean(bean);
			context.refresh();
		}
	}

	private static LockRegistry noRegistry() {
		throw new IllegalStateException("a refused method never asks for the registry");
	}

}
