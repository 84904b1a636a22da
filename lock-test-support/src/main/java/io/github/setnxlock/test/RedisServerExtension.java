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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * One {@link RedisServer} for a test class, emptied before each test, and run on Valkey
 * for a class marked {@link OnValkey @OnValkey}, on Redis 8.4 or later for one marked
 * {@link OnRedis8 @OnRedis8}: <pre class="code">
 * &#64;RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();
 * </pre> A class reaches its server through {@link #server()}. Test classes run side by
 * side, so an abstract class whose subclasses share its static extension takes the server
 * as a parameter instead ({@code @BeforeEach void connect(RedisServer server)}): each
 * subclass has a server of its own, kept in its class's extension store.
 * <p>
 * A missing Valkey or Redis 8 skips the class, or fails it in a strict build (see
 * {@link TestRequirements}).
 *
 * @author setnx-lock authors
 */
public final class RedisServerExtension
		implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(RedisServerExtension.class);

	private final Map<Class<?>, RedisServer> servers = new ConcurrentHashMap<>();

	@Override
	public void beforeAll(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		RedisServer server;
		if (AnnotationSupport.isAnnotated(testClass, OnValkey.class)) {
			server = startValkey();
		}
		else if (AnnotationSupport.isAnnotated(testClass, OnRedis8.class)) {
			server = startRedis8();
		}
		else {
			server = RedisServer.start();
		}
		context.getStore(NAMESPACE).put(RedisServer.class, server);
		this.servers.put(testClass, server);
	}

	/**
	 * Start a Valkey server, as for a class marked {@link OnValkey @OnValkey}.
	 * @return the running server, which the caller closes
	 * @throws org.opentest4j.TestAbortedException where this machine has no Valkey (an
	 * error in a strict build, see {@link TestRequirements})
	 */
	public static RedisServer startValkey() {
		return start(RedisBinary.valkey(), "No Valkey server: set " + RedisBinary.VALKEY_PROPERTY
				+ " or SETNX_LOCK_VALKEY_SERVER to one (.ci/install-server valkey installs one)");
	}

	/**
	 * Start a Redis 8.4 or later, as for a class marked {@link OnRedis8 @OnRedis8}.
	 * @return the running server, which the caller closes
	 * @throws org.opentest4j.TestAbortedException where this machine has none (an error
	 * in a strict build, see {@link TestRequirements})
	 */
	public static RedisServer startRedis8() {
		return start(RedisBinary.redis8(), "No Redis 8.4 or later: set " + RedisBinary.REDIS8_PROPERTY
				+ " or SETNX_LOCK_REDIS8_SERVER to one (.ci/install-server redis installs one)");
	}

	private static RedisServer start(Optional<Path> binary, String missing) {
		TestRequirements.require(binary.isPresent(), missing);
		return RedisProcess.start(binary.get(), List.of());
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		server(context).execute("FLUSHALL");
	}

	@Override
	public void afterAll(ExtensionContext context) {
		RedisServer server = this.servers.remove(context.getRequiredTestClass());
		if (server != null) {
			server.close();
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == RedisServer.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return server(context);
	}

	private static RedisServer server(ExtensionContext context) {
		RedisServer server = context.getStore(NAMESPACE).get(RedisServer.class, RedisServer.class);
		if (server == null) {
			throw new IllegalStateException("The server starts before the first test of the class");
		}
		return server;
	}

	/**
	 * Return the class's server.
	 * @return the running server
	 * @throws IllegalStateException before the class's first test, or when the extension
	 * serves several classes at once (take the server as a parameter then)
	 */
	public RedisServer server() {
		if (this.servers.size() != 1) {
			throw new IllegalStateException(
					this.servers.isEmpty() ? "The server starts before the first test of the class"
							: "This extension serves " + this.servers.keySet()
									+ " at once: take the server as a parameter of a @BeforeEach method");
		}
		return this.servers.values().iterator().next();
	}

}
