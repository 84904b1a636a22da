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

package io.github.setnxlock.sample;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Lets the native sample extract the {@code redis-server} binaries that embedded-redis
 * ships as classpath resources, for a machine with no {@code redis-server} on the
 * {@code PATH} (see {@link EmbeddedRedis}). Only the Linux and macOS ones, to keep the
 * image small: on Windows the native sample needs a {@code redis-server} on the
 * {@code PATH}.
 *
 * @author setnx-lock authors
 */
class EmbeddedRedisRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources().registerPattern("redis-server-*-linux-*").registerPattern("redis-server-*-darwin-*");
	}

}
