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

package io.github.setnxlock;

/**
 * Thrown when a holder finds that its lock was no longer its own: the lease ended before
 * {@link LeasedLock#unlock()}, or another client took the lock over.
 * <p>
 * It means the work done under the lock may not have been exclusive. It is an
 * {@link IllegalMonitorStateException} because, like one, it says the thread did not own
 * the monitor it released; catch it where that matters, and use the
 * {@link LeasedLock#fencingToken() fencing token} to make the protected resource safe
 * against it.
 *
 * @author setnx-lock authors
 */
public class LockLostException extends IllegalMonitorStateException {

	private static final long serialVersionUID = 1L;

	/** The key of the lock that was lost. */
	private final String key;

	/**
	 * Create a new exception for the given lock key.
	 * @param key the lock's key, without prefix
	 * @param message what happened
	 */
	public LockLostException(String key, String message) {
		super(message);
		this.key = key;
	}

	/**
	 * Return the key of the lock that was lost.
	 * @return the key, without prefix
	 */
	public String getKey() {
		return this.key;
	}

}
