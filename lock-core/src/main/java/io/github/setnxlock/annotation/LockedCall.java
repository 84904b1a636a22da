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

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockHandle;
import io.github.setnxlock.LockNotAcquiredException;

/**
 * One call of a {@link DistributedLock} method whose work ends after it returns: the
 * lock, the timings, and the call itself, to be made once the lock is held.
 *
 * @param method the annotation's meaning
 * @param lock the lock, obtained for the call's key
 * @param waitTime how long to wait for it
 * @param lease the lease, or {@code null} for the registry's renewed one
 * @param invocation the call
 * @author setnx-lock authors
 */
record LockedCall(LockedMethod method, LeasedLock lock, Duration waitTime, Duration lease,
		MethodInvocation invocation) {

	/**
	 * Start acquiring the lock, without a thread waiting.
	 * @return the hold, or empty when the wait ended
	 */
	CompletableFuture<Optional<LockHandle>> acquire() {
		return (this.lease != null) ? this.lock.acquireAsync(this.waitTime, this.lease)
				: this.lock.acquireAsync(this.waitTime);
	}

	/**
	 * Make the call. A call made after a Reactor subscription, which may come more than
	 * once, goes through a copy of the intercepted invocation each time.
	 * @param again whether the invocation may be made more than once
	 * @return what the method returned
	 * @throws Throwable what the method threw
	 */
	Object proceed(boolean again) throws Throwable {
		MethodInvocation call = (again && this.invocation instanceof ProxyMethodInvocation proxied)
				? proxied.invocableClone() : this.invocation;
		return call.proceed();
	}

	/**
	 * Answer the call as its annotation says when the lock could not be had.
	 * @param skipped what a skipped call returns
	 * @return the fallback's result, or the skipped one
	 * @throws Throwable a {@link LockNotAcquiredException}, or what the fallback threw
	 */
	Object notAcquired(Object skipped) throws Throwable {
		return DistributedLockInterceptor.notAcquired(this.method, this.invocation.getThis(),
				this.invocation.getArguments(), this.lock.key(), this.waitTime, skipped, null);
	}

	/**
	 * Return a failure of the registry with this call's key left out of its message
	 * ({@link KeyRedaction}).
	 */
	Throwable redacted(Throwable failure) {
		return KeyRedaction.redact(failure, this.lock.key(), this.method);
	}

	/**
	 * Release the hold of a call whose method ran, keeping the key for what is left of
	 * the annotation's {@code holdAtLeast}.
	 * @param handle the hold
	 * @param acquiredAt when it was acquired, a {@link System#nanoTime()}
	 * @return completed once released
	 */
	CompletableFuture<Void> release(LockHandle handle, long acquiredAt) {
		Duration holdAtLeast = this.method.holdAtLeast;
		if (holdAtLeast != null) {
			long leftMillis = holdAtLeast.minusNanos(System.nanoTime() - acquiredAt).toMillis();
			if (leftMillis > 0) {
				return handle.releaseKeepingFor(Duration.ofMillis(leftMillis));
			}
		}
		return handle.release();
	}

}
