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
package io.github.setnxlock.memory;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared threads of the in-memory registry take nothing from the thread that happens
 * to start them.
 *
 * @author setnx-lock authors
 */
class TimersTests {

	private static final InheritableThreadLocal<String> INHERITED = new InheritableThreadLocal<>();

	@Test
	void threadsTakeNeitherTheContextClassLoaderNorTheInheritableThreadLocalsOfTheirCreator() throws Exception {
		ThreadFactory factory = Timers.daemon("timers-tests-");
		CompletableFuture<ClassLoader> loaderSeen = new CompletableFuture<>();
		CompletableFuture<String> localSeen = new CompletableFuture<>();
		CompletableFuture<Thread> created = new CompletableFuture<>();
		try (URLClassLoader applications = new URLClassLoader(new URL[0], null)) {
			Thread creator = new Thread(() -> {
				INHERITED.set("the creator's");
				Thread.currentThread().setContextClassLoader(applications);
				Thread thread = factory.newThread(() -> {
					loaderSeen.complete(Thread.currentThread().getContextClassLoader());
					localSeen.complete(String.valueOf(INHERITED.get()));
				});
				created.complete(thread);
				thread.start();
			});
			creator.start();
			assertThat(loaderSeen.get(10, TimeUnit.SECONDS)).isSameAs(Timers.class.getClassLoader());
			assertThat(localSeen.get(10, TimeUnit.SECONDS)).isEqualTo("null");
			Thread thread = created.get(10, TimeUnit.SECONDS);
			assertThat(thread.isDaemon()).isTrue();
			assertThat(thread.getName()).startsWith("timers-tests-");
		}
	}

}
