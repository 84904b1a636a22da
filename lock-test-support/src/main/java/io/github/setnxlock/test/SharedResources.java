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

/**
 * Names of what test classes share although each starts its own servers, for JUnit's
 * {@code @ResourceLock}: test classes run side by side (see each module's
 * {@code junit-platform.properties}), except where they hold the same resource.
 *
 * @author setnx-lock authors
 */
public final class SharedResources {

	/**
	 * The machine's cores. A class that starts other JVMs or keeps many threads busy
	 * holds it (the default, read-write mode), so that two such classes never run at once
	 * and starve each other's processes of the time their leases count on. A class that
	 * uses little of the cores but whose timing such a class would upset (short node
	 * timeouts, frozen servers) holds it in
	 * {@link org.junit.jupiter.api.parallel.ResourceAccessMode#READ} mode: several of
	 * those run beside one another, never beside one of the first kind. Classes that
	 * mostly wait run beside either.
	 */
	public static final String CORES = "setnx-lock.cores";

	private SharedResources() {
	}

}
