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

package io.github.setnxlock.benchmarks;

import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * A contender whose locks come from a registry of {@link Lock}s by key, as setnx-lock's
 * and Spring Integration's do.
 *
 * @param name the name printed in the tables
 * @param registry the lock of each key
 * @param closer closes the registry and its connections
 * @author setnx-lock authors
 */
record RegistryContender(String name, Function<String, Lock> registry, Runnable closer) implements Contender {

	@Override
	public KeyLock lockFor(String key) {
		return KeyLock.of(this.registry.apply(key));
	}

	@Override
	public void close() {
		this.closer.run();
	}

}
