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
package io.github.setnxlock.redis.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;

/**
 * Gives a held lock a new lease on its holder's request (ShedLock's {@code extend},
 * Spring Integration's {@code renewLock}): the renewal's compare-and-extend with the
 * holder's lease instead of the registry's, one at a time per hold.
 * <p>
 * Only a hold with a lease of its own is extended this way: the watchdog renews the
 * others with the registry's lease, and two writers of one key's expiry could leave the
 * holder believing in a later deadline than Redis holds. The new lease counts from when
 * the extension was sent, as a renewal's does. A release waits for an extension that is
 * out, as it waits for a renewal (see {@link LeaseRenewer#stop}), so the two never cross
 * in Redis. An answer "not ours" ends the hold as a rejected renewal does; a Redis
 * failure leaves the hold as it was.
 *
 * @author setnx-lock authors
 */
final class HoldExtensions {

	private final LockCommands commands;

	private final LeaseRenewer renewer;

	HoldExtensions(LockCommands commands, LeaseRenewer renewer) {
		this.commands = commands;
		this.renewer = renewer;
	}

	/**
	 * Extend a hold's lease from now, if the hold is still held.
	 * @param hold the hold, with a lease of its own
	 * @param lease the new lease
	 * @return {@code true} when extended; {@code false} when the hold was released, lost,
	 * or found lost by the extension; failed with {@link LockAccessException} when Redis
	 * could not be reached, and with {@link IllegalStateException} for a renewed hold or
	 * while another extension of it is out
	 */
	CompletableFuture<Boolean> extend(Hold hold, Duration lease) {
		if (hold.renewedByWatchdog) {
			return CompletableFuture.failedFuture(new IllegalStateException("Lock '" + hold.key()
					+ "' is renewed by the registry; only a hold with a lease of its own can be given a new one"));
		}
		CompletableFuture<Void> applied = new CompletableFuture<>();
		if (!hold.extension.compareAndSet(null, applied)) {
			return CompletableFuture
				.failedFuture(new IllegalStateException("Another extension of lock '" + hold.key() + "' is under way"));
		}
		CompletableFuture<Boolean> extended = new CompletableFuture<>();
		// After the extension is visible: a release that began meanwhile is seen here,
		// and a later one waits for the extension.
		if (hold.hasEnded() || hold.isLost(System.nanoTime())) {
			done(hold, applied);
			extended.complete(false);
			return extended;
		}
		try {
			Lease current = hold.lease();
			// A waiter elsewhere waits for the current lease's end unless told.
			CompletableFuture<List<RenewalResult>> answer = (System.nanoTime() + lease.toNanos()
					- current.deadlineNanos() < 0) ? this.commands.shorten(hold.key, current, lease).thenApply(List::of)
							: this.commands.renew(List.of(hold.key), List.of(current), lease);
			answer.whenComplete((results, failure) -> answered(hold, applied, extended, results, failure));
		}
		catch (RuntimeException ex) {
			answered(hold, applied, extended, null, ex);
		}
		return extended;
	}

	/**
	 * Let the next extension, or a waiting release, go: before the caller hears the
	 * outcome, so that its next extension finds this one done.
	 */
	private static void done(Hold hold, CompletableFuture<Void> applied) {
		hold.extension.set(null);
		applied.complete(null);
	}

	private void answered(Hold hold, CompletableFuture<Void> applied, CompletableFuture<Boolean> extended,
			List<RenewalResult> results, Throwable failure) {
		RenewalResult answer = (results != null) ? results.get(0) : null;
		Throwable error = (failure != null) ? failure : (answer != null) ? answer.failure() : null;
		if (error != null) {
			Throwable cause = (error instanceof CompletionException && error.getCause() != null) ? error.getCause()
					: error;
			done(hold, applied);
			extended.completeExceptionally(new LockAccessException(hold.key(), "Could not extend lock '" + hold.key()
					+ "': " + RedisCall.describe(cause) + "; the hold keeps its lease", cause));
		}
		else if (answer.renewed() != null && hold.takeRenewal(answer.renewed())) {
			done(hold, applied);
			extended.complete(true);
		}
		else {
			// Not ours, or an answer that came after the holder's deadline: the hold is
			// lost. Reported from the renewal thread, as a renewal's answer is, not from
			// the thread that answered.
			Reason reason = (answer.renewed() != null || answer.rejected() == ReleaseResult.EXPIRED)
					? Reason.LEASE_ENDED : Reason.RENEWAL_REJECTED;
			Runnable lost = () -> {
				this.renewer.lost(hold, reason);
				done(hold, applied);
				extended.complete(false);
			};
			try {
				this.renewer.scheduler.execute(lost);
			}
			catch (RejectedExecutionException ex) {
				lost.run();
			}
		}
	}

}
