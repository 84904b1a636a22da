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

import java.util.IdentityHashMap;
import java.util.Map;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;

/**
 * Keeps the key of an annotated call's lock out of the messages of the exceptions that
 * pass from the registry through the advice. The registry names a lock by its key, as a
 * caller who chose the key needs; the key of a {@link DistributedLock} is built from the
 * call's arguments, which may be personal data that has no place in logs. So a
 * {@link LockAccessException}, {@link LockLostException} or {@link InterruptedException}
 * whose message holds the key is replaced by one of the same class whose message names
 * the lock and the method and shows {@code <key>} where the key was; the stack trace, the
 * cause and the suppressed exceptions (each kept free of the key the same way) stay, and
 * {@code getKey()} still gives the key to code that wants it. Exceptions of other types
 * are passed on as they are: the advice cannot copy a class it does not know, and the
 * registry throws those three where a key is at stake.
 *
 * @author setnx-lock authors
 */
final class KeyRedaction {

	private static final String PLACEHOLDER = "<key>";

	private KeyRedaction() {
	}

	/**
	 * Return the failure, or a copy of it with the key left out of its message, its
	 * cause's and its suppressed exceptions'.
	 * @param failure what the registry threw, or {@code null}
	 * @param key the key of the call's lock
	 * @param locked the annotated method
	 * @return the failure to pass on
	 */
	static Throwable redact(Throwable failure, String key, LockedMethod locked) {
		if (failure == null || locked.key == null) {
			// Without a key expression, the key is the lock's name: no argument in it.
			return failure;
		}
		return redact(failure, key, locked, new IdentityHashMap<>());
	}

	/**
	 * Redact a failure that is known to be unchecked or an error.
	 */
	static RuntimeException redact(RuntimeException failure, String key, LockedMethod locked) {
		return (RuntimeException) redact((Throwable) failure, key, locked);
	}

	/**
	 * Redact one failure of a chain, each once: a chain may loop back on itself.
	 * @param done the failures met so far, each with what it became
	 */
	private static Throwable redact(Throwable failure, String key, LockedMethod locked,
			Map<Throwable, Throwable> done) {
		if (failure == null) {
			return null;
		}
		Throwable met = done.get(failure);
		if (met != null) {
			return met;
		}
		done.put(failure, failure);
		Throwable cause = redact(failure.getCause(), key, locked, done);
		Throwable[] suppressed = failure.getSuppressed();
		Throwable[] redactedSuppressed = new Throwable[suppressed.length];
		boolean changed = cause != failure.getCause();
		for (int i = 0; i < suppressed.length; i++) {
			redactedSuppressed[i] = redact(suppressed[i], key, locked, done);
			changed |= redactedSuppressed[i] != suppressed[i];
		}
		String message = failure.getMessage();
		boolean named = message != null && message.contains(key);
		if (!named && !changed) {
			return failure;
		}
		String redacted = named ? "Lock '" + locked.name + "' of " + LockedMethod.describe(locked.method) + ": "
				+ message.replace(key, PLACEHOLDER) : message;
		Throwable copy = copy(failure, redacted, cause);
		if (copy == null) {
			// Not a type of the registry's: left as it is, see the class's comment.
			return failure;
		}
		copy.setStackTrace(failure.getStackTrace());
		for (Throwable each : redactedSuppressed) {
			copy.addSuppressed(each);
		}
		done.put(failure, copy);
		return copy;
	}

	private static Throwable copy(Throwable failure, String message, Throwable cause) {
		Class<?> type = failure.getClass();
		if (type == LockAccessException.class) {
			return new LockAccessException(((LockAccessException) failure).getKey(), message, cause);
		}
		Throwable copy;
		if (type == LockLostException.class) {
			copy = new LockLostException(((LockLostException) failure).getKey(), message);
		}
		else if (type == InterruptedException.class) {
			copy = new InterruptedException(message);
		}
		else {
			return null;
		}
		if (cause != null) {
			copy.initCause(cause);
		}
		return copy;
	}

}
