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

package io.github.setnxlock.autoconfigure;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * An application in a JVM of its own, so that its first lock call is as cold as a freshly
 * started service's: it starts on a Redis server, makes one lock call as soon as the
 * context is refreshed, and prints {@code FIRST <outcome> <ms>} (the outcome is
 * {@code true}, {@code false} or the exception). {@link FirstLockCallTests} starts it.
 * <p>
 * Arguments: Redis port, then {@code tryLock} (a {@code tryLock(200 ms)} of the registry)
 * or {@code shedlock} (a first run of a ShedLock job, which waits 0).
 *
 * @author setnx-lock authors
 */
public final class FirstLockCallApplication {

	private FirstLockCallApplication() {
	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setLogStartupInfo(false);
		application.setBannerMode(Banner.Mode.OFF);
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + args[0], "--spring.data.redis.timeout=2s")) {
			long start = System.nanoTime();
			String outcome;
			try {
				outcome = String.valueOf(firstCall(context, args[1]));
			}
			catch (Exception ex) {
				outcome = ex.toString().replace('\n', ' ');
			}
			System.out.println("FIRST " + outcome + " " + Duration.ofNanos(System.nanoTime() - start).toMillis());
			System.out.flush();
		}
	}

	private static boolean firstCall(ConfigurableApplicationContext context, String call) throws Exception {
		if (call.equals("shedlock")) {
			Optional<SimpleLock> lock = context.getBean(LockProvider.class)
				.lock(new LockConfiguration(ClockProvider.now(), "first-run", Duration.ofSeconds(10), Duration.ZERO));
			lock.ifPresent(SimpleLock::unlock);
			return lock.isPresent();
		}
		LeasedLock lock = context.getBean(LockRegistry.class).obtain("first-call");
		boolean acquired = lock.tryLock(Duration.ofMillis(200));
		if (acquired) {
			lock.unlock();
		}
		return acquired;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class,
			ShedLockBridgeAutoConfiguration.class })
	static class Application {

	}

}
