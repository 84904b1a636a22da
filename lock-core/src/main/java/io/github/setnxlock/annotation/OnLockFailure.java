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

import io.github.setnxlock.LockNotAcquiredException;

/**
 * What a {@link DistributedLock} method does when its lock is held by someone else for
 * the whole wait.
 *
 * @author setnx-lock authors
 */
public enum OnLockFailure {

	/**
	 * Throw a {@link LockNotAcquiredException}. The default.
	 */
	THROW,

	/**
	 * Do not run the method: return {@code null}, an empty {@link java.util.Optional}, or
	 * nothing for {@code void}. Methods that return a primitive cannot be skipped and are
	 * rejected at start-up.
	 */
	SKIP,

	/**
	 * Call the method named by {@link DistributedLock#fallback()} instead, and return
	 * what it returns.
	 */
	FALLBACK

}
