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

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Thrown when a lock could not be read or written in Redis: the server is unreachable or
 * did not answer in time, or the lock's key holds something that is not a lock (a hash, a
 * list, a value that is not a timestamp). The message names the key; the cause, when
 * there is one, is the Redis client's error.
 * <p>
 * It is never thrown for contention, which {@code tryLock} reports as {@code false}.
 * <p>
 * It is a Spring {@link org.springframework.dao.DataAccessException}, so code and retry
 * policies that handle Spring's data access failures see it. It is a
 * {@link TransientDataAccessResourceException} because nearly every cause passes (Redis
 * restarting, a failover, a slow network): the same call may succeed when tried again. A
 * key that holds something that is not a lock is the exception; trying again fails the
 * same way until someone removes that value.
 *
 * @author setnx-lock authors
 */
public class LockAccessException extends TransientDataAccessResourceException {

	private static final long serialVersionUID = 1L;

	/** The key of the lock whose command failed. */
	private final String key;

	/**
	 * Create a new exception for the given lock key.
	 * @param key the lock's key, without prefix
	 * @param message what went wrong
	 * @param cause the Redis client's error, or {@code null}
	 */
	public LockAccessException(String key, String message, Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/**
	 * Return the key of the lock that could not be used.
	 * @return the key, without prefix
	 */
	public String getKey() {
		return this.key;
	}

}
