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
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;

/**
 * Hands out the fencing token of a hold, drawn on the first request (DESIGN: fencing is
 * drawn lazily). The draw is one call to Redis that draws only while the lock key still
 * holds the hold's owner token, so a token is never handed to a holder that has lost its
 * key; later requests, from any thread, get the same token.
 * <p>
 * A request waits for the draw up to the holder's deadline, like {@code unlock()}: past
 * it the hold is lost whatever the answer. An answer "not ours" ends the hold at once, as
 * a rejected renewal does. A draw that fails (Redis unreachable, or any other failure)
 * leaves the hold held and is forgotten, so the next request draws again: a token is a
 * promise only once handed out, and a later draw is higher.
 * <p>
 * No token is drawn for a hold whose release has begun, nor handed out when the draw's
 * answer comes after it began: a local hand-off passes the key, with the same owner
 * token, to the next hold of this JVM, whose own draw a late draw of the old hold would
 * pass ({@link IllegalStateException}, as for a released hold).
 *
 * @author setnx-lock authors
 */
final class FencingDraws {

	private final LockCommands commands;

	private final LeaseRenewer renewer;

	FencingDraws(LockCommands commands, LeaseRenewer renewer) {
		this.commands = commands;
		this.renewer = renewer;
	}

	/** Return a hold's fencing token, drawn on the first request; not interruptible. */
	long tokenOf(Hold hold) {
		long drawn = hold.fencingToken();
		if (drawn != Lease.NOT_DRAWN) {
			return drawn;
		}
		// Without a deadline of its own: the draw fails at the hold's instead.
		OptionalLong answer = Waits.awaitUninterrupted(boundedDraw(hold));
		// On the caller's thread: a draw that found the hold lost ends it here, where its
		// listeners and observations may run, never on a thread that serves Redis.
		return tokenFrom(hold, answer);
	}

	/** As {@link #tokenOf}, without waiting for the draw: failed as it throws. */
	CompletableFuture<Long> tokenOfAsync(Hold hold) {
		long drawn = hold.fencingToken();
		if (drawn != Lease.NOT_DRAWN) {
			return CompletableFuture.completedFuture(drawn);
		}
		CompletableFuture<Long> token = new CompletableFuture<>();
		boundedDraw(hold).whenComplete((answer, failure) -> {
			if (failure != null) {
				token.completeExceptionally(Waits.unwrapped(failure));
			}
			else if (answer.isPresent()) {
				token.complete(answer.getAsLong());
			}
			else {
				// Refused: the hold is lost, and ends where a renewal's loss does.
				this.renewer.thread.run(() -> {
					try {
						token.complete(tokenFrom(hold, answer));
					}
					catch (RuntimeException ex) {
						token.completeExceptionally(ex);
					}
				});
			}
		});
		return token;
	}

	/**
	 * Return the hold's draw, failed when the hold's deadline (renewals move it) passes.
	 */
	private CompletableFuture<OptionalLong> boundedDraw(Hold hold) {
		if (hold.isReleasing()) {
			return CompletableFuture.failedFuture(released(hold));
		}
		if (hold.isLost(System.nanoTime())) {
			return CompletableFuture.failedFuture(hold.lostException("before its fencing token was drawn"));
		}
		if (this.renewer.thread.isClosed()) {
			return CompletableFuture.failedFuture(closed(hold));
		}
		// A copy, which the hold's deadline may fail without touching the shared draw.
		CompletableFuture<OptionalLong> bounded = drawOf(hold).copy();
		watchWhileHeld(hold, bounded);
		return bounded;
	}

	private static IllegalStateException closed(Hold hold) {
		return new IllegalStateException(
				"Lock registry is closed: the fencing token of lock '" + hold.key() + "' cannot be drawn");
	}

	private static IllegalStateException released(Hold hold) {
		return new IllegalStateException(
				"The hold of lock '" + hold.key() + "' was released: it has no fencing token to draw");
	}

	private void watchWhileHeld(Hold hold, CompletableFuture<?> draw) {
		if (draw.isDone()) {
			return;
		}
		CompletableFuture<Void> deadline = new CompletableFuture<>();
		if (!this.renewer.thread.completeAt(deadline, null, hold.lease().deadlineNanos())) {
			draw.completeExceptionally(closed(hold));
			return;
		}
		deadline.thenRun(() -> {
			if (!hold.isLost(System.nanoTime())) {
				watchWhileHeld(hold, draw);
			}
			else {
				draw.completeExceptionally(hold
					.lostException("while its fencing token was drawn (Redis did not answer the draw in time)"));
			}
		});
		draw.whenComplete((value, failure) -> deadline.cancel(false));
	}

	/** Return the token a draw answered, or end the hold when the draw found it lost. */
	private long tokenFrom(Hold hold, OptionalLong token) {
		if (token.isEmpty()) {
			hold.evidence.drawRejected();
			this.renewer.lost(hold, Reason.RENEWAL_REJECTED);
			throw hold.lostException("when its fencing token was drawn");
		}
		return token.getAsLong();
	}

	/** Return the hold's draw, starting it if nobody has: one per hold, whoever asks. */
	private CompletableFuture<OptionalLong> drawOf(Hold hold) {
		CompletableFuture<OptionalLong> started = new CompletableFuture<>();
		// Read again after a lost race: the draw that won may have failed and been
		// forgotten meanwhile.
		while (!hold.fenceDraw.compareAndSet(null, started)) {
			CompletableFuture<OptionalLong> current = hold.fenceDraw.get();
			if (current != null) {
				return current;
			}
		}
		try {
			this.commands.fencingToken(hold.key, hold.lease()).whenComplete((token, failure) -> {
				if (failure != null) {
					// Forgotten, so that the next request draws again.
					hold.fenceDraw.compareAndSet(started, null);
					started.completeExceptionally(failure);
				}
				else if (hold.isReleasing()) {
					// Answered after the release began: the key may be the next hold's by
					// now, with a draw of its own that this one may have passed.
					started.completeExceptionally(released(hold));
				}
				else {
					started.complete(token);
				}
			});
		}
		catch (RuntimeException ex) {
			hold.fenceDraw.compareAndSet(started, null);
			started.completeExceptionally(ex);
		}
		return started;
	}

	/**
	 * Gives a held lock a new lease on its holder's request (ShedLock's {@code extend},
	 * Spring Integration's {@code renewLock}): the renewal's compare-and-extend with the
	 * holder's lease instead of the registry's, one at a time per hold.
	 * <p>
	 * Only a hold with a lease of its own is extended this way: the watchdog renews the
	 * others with the registry's lease, and two writers of one key's expiry could leave
	 * the holder believing in a later deadline than Redis holds. The new lease counts
	 * from when the extension was sent, as a renewal's does. A release waits for an
	 * extension that is out, as it waits for a renewal (see {@link LeaseRenewer#stop}),
	 * so the two never cross in Redis. An answer "not ours" ends the hold as a rejected
	 * renewal does; a Redis failure leaves the hold as it was.
	 */
	static final class HoldExtensions {

		private final LockCommands commands;

		private final LeaseRenewer renewer;

		HoldExtensions(LockCommands commands, LeaseRenewer renewer) {
			this.commands = commands;
			this.renewer = renewer;
		}

		/**
		 * Extend a hold's lease, its own, from now, if the hold is still held.
		 * @return {@code true} when extended; {@code false} when the hold was released,
		 * lost, or found lost by the extension; failed with {@link LockAccessException}
		 * when Redis could not be reached, and with {@link IllegalStateException} for a
		 * renewed hold or while another extension of it is out
		 */
		CompletableFuture<Boolean> extend(Hold hold, Duration lease) {
			if (hold.renewedByWatchdog) {
				return CompletableFuture.failedFuture(new IllegalStateException("Lock '" + hold.key()
						+ "' is renewed by the registry; only a hold with a lease of its own can be given a new one"));
			}
			CompletableFuture<Void> applied = new CompletableFuture<>();
			if (!hold.extension.compareAndSet(null, applied)) {
				return CompletableFuture.failedFuture(
						new IllegalStateException("Another extension of lock '" + hold.key() + "' is under way"));
			}
			// After the extension is visible: a release that began meanwhile is seen
			// here, and a later one waits for the extension.
			if (hold.hasEnded() || hold.isLost(System.nanoTime())) {
				done(hold, applied);
				return CompletableFuture.completedFuture(false);
			}
			CompletableFuture<Boolean> extended = new CompletableFuture<>();
			try {
				Lease current = hold.lease();
				// A waiter elsewhere waits for the current lease's end unless told.
				CompletableFuture<List<RenewalResult>> answer = (System.nanoTime() + lease.toNanos()
						- current.deadlineNanos() < 0)
								? this.commands.shorten(hold.key, current, lease).thenApply(List::of)
								: this.commands.renew(List.of(hold.key), List.of(current), lease);
				// Taken on the renewal thread, where the lease-end watch runs: an answer
				// taken elsewhere could pass the watch's look at the old lease, and the
				// hold be found lost right after its extension was said to succeed.
				// Judged by when it came, not by when the renewal thread gets to it.
				answer.whenComplete((results, failure) -> {
					long answeredNanos = System.nanoTime();
					this.renewer.thread.run(() -> answered(hold, applied, extended, results, failure, answeredNanos));
				});
			}
			catch (RuntimeException ex) {
				answered(hold, applied, extended, null, ex, System.nanoTime());
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
				List<RenewalResult> results, Throwable failure, long answeredNanos) {
			RenewalResult answer = (results != null) ? results.get(0) : null;
			Throwable error = (failure != null) ? failure : (answer != null) ? answer.failure() : null;
			if (error != null) {
				Throwable cause = Waits.unwrapped(error);
				done(hold, applied);
				extended.completeExceptionally(new LockAccessException(hold.key(), "Could not extend lock '"
						+ hold.key() + "': " + RedisCall.describe(cause) + "; the hold keeps its lease", cause));
			}
			else if (answer.renewed() != null && hold.takeRenewal(answer.renewed(), answeredNanos)) {
				done(hold, applied);
				extended.complete(true);
			}
			else {
				// Not ours, or an answer that came after the holder's deadline: the hold
				// is lost.
				this.renewer.lost(hold, (answer.renewed() != null || answer.rejected() == ReleaseResult.EXPIRED)
						? Reason.LEASE_ENDED : Reason.RENEWAL_REJECTED);
				done(hold, applied);
				extended.complete(false);
			}
		}

	}

}
