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

package io.github.setnxlock.redis.gateway;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a native image needs of the gateway: the Lua scripts, which {@link LockScript}
 * reads as classpath resources next to each protocol's classes, and Lettuce's client
 * class, which {@link WaitCommand} and {@link ScriptCalls} (and the auto-configuration's
 * command timeout check) look up by name to see whether Lettuce is there. A class looked
 * up by name is found in a native image only when it is registered.
 *
 * @author setnx-lock authors
 */
class LockScriptsRuntimeHints implements RuntimeHintsRegistrar {

	static final String LETTUCE_CLIENT = "io.lettuce.core.RedisClient";

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources().registerPattern("io/github/setnxlock/redis/*/*.lua");
		hints.reflection().registerTypeIfPresent(classLoader, LETTUCE_CLIENT);
	}

}
