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

package io.github.setnxlock.test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * One {@link RedisServer} for a test class, emptied before each test, and run on Valkey
 * for a class marked {@link OnValkey @OnValkey}, on Redis 8.4 or later for one marked
 * {@link OnRedis8 @OnRedis8}: <pre class="code">
 * &#64;RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();
 * </pre>
 *
 * @author setnx-lock authors
 */
public final class RedisServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private RedisServer server;

	@Override
	public void beforeAll(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		if (AnnotationSupport.isAnnotated(testClass, OnValkey.class)) {
			this.server = start(RedisBinary.valkey(), "No Valkey server: set " + RedisBinary.VALKEY_PROPERTY
					+ " or SETNX_LOCK_VALKEY_SERVER to one (.ci/install-server valkey installs one)");
		}
		else if (AnnotationSupport.isAnnotated(testClass, OnRedis8.class)) {
			this.server = start(RedisBinary.redis8(), "No Redis 8.4 or later: set " + RedisBinary.REDIS8_PROPERTY
					+ " or SETNX_LOCK_REDIS8_SERVER to one (.ci/install-server redis installs one)");
		}
		else {
			this.server = RedisServer.start();
		}
	}

	private static RedisServer start(Optional<Path> binary, String missing) {
		Assumptions.assumeTrue(binary.isPresent(), missing);
		return RedisProcess.start(binary.get(), List.of());
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.server.execute("FLUSHALL");
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.server != null) {
			this.server.close();
		}
	}

	/**
	 * Return the class's server.
	 * @return the running server
	 */
	public RedisServer server() {
		if (this.server == null) {
			throw new IllegalStateException("The server starts before the first test of the class");
		}
		return this.server;
	}

}
