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
package io.github.setnxlock.redis;

/**
 * Where the {@link LockProtocol#TIMESTAMP timestamp} protocol reads "now".
 *
 * @author setnx-lock authors
 */
public enum TimestampClock {

	/**
	 * The Redis server's {@code TIME}, read inside the lock scripts: one clock for every
	 * client of the registry, whatever their own clocks say. The default.
	 */
	REDIS,

	/**
	 * This JVM's wall clock, as the clients of the documented pattern use theirs. Choose
	 * it only to match such clients exactly; clients whose clocks disagree by more than a
	 * lease can then hold the same lock at once.
	 */
	LOCAL

}
