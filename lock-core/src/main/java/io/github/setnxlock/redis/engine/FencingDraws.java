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

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import io.github.setnxlock.LockLostEvent.Reason;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.Lease;

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

	long tokenOf(Hold hold) {
		long drawn = hold.fencingToken();
		if (drawn != Lease.NOT_DRAWN) {
			return drawn;
		}
		checkDrawable(hold);
		CompletableFuture<OptionalLong> draw = drawOf(hold);
		OptionalLong token;
		try {
			token = awaitWhileHeld(hold, draw);
		}
		catch (TimeoutException ex) {
			throw hold.lostException("while its fencing token was drawn (Redis did not answer the draw in time)");
		}
		return tokenFrom(hold, token);
	}

	/**
	 * Refuse a draw for a hold that is lost, or whose release has begun.
	 */
	private static void checkDrawable(Hold hold) {
		if (hold.isReleasing()) {
			throw released(hold);
		}
		if (hold.isLost(System.nanoTime())) {
			throw hold.lostException("before its fencing token was drawn");
		}
	}

	private static IllegalStateException released(Hold hold) {
		return new IllegalStateException(
				"The hold of lock '" + hold.key() + "' was released: it has no fencing token to draw");
	}

	/**
	 * Return a hold's fencing token without waiting for the draw: as {@link #tokenOf},
	 * with the answer to come.
	 * @param hold the hold
	 * @return the token, to come; failed as {@link #tokenOf} throws
	 */
	CompletableFuture<Long> tokenOfAsync(Hold hold) {
		long drawn = hold.fencingToken();
		if (drawn != Lease.NOT_DRAWN) {
			return CompletableFuture.completedFuture(drawn);
		}
		try {
			checkDrawable(hold);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<OptionalLong> draw = drawOf(hold);
		CompletableFuture<Long> token = new CompletableFuture<>();
		draw.whenComplete((answer, failure) -> {
			if (failure != null) {
				token.completeExceptionally((failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure);
				return;
			}
			try {
				token.complete(tokenFrom(hold, answer));
			}
			catch (RuntimeException ex) {
				token.completeExceptionally(ex);
			}
		});
		watchWhileHeld(hold, token);
		return token;
	}

	/**
	 * Fail a draw that is still out when the hold's deadline passes, which a renewal
	 * meanwhile moves on.
	 */
	private void watchWhileHeld(Hold hold, CompletableFuture<Long> token) {
		if (token.isDone()) {
			return;
		}
		CompletableFuture<Void> deadline = new CompletableFuture<>();
		if (!this.renewer.completeAt(deadline, null, hold.lease().deadlineNanos())) {
			token.completeExceptionally(new IllegalStateException(
					"Lock registry is closed: the fencing token of lock '" + hold.key() + "' cannot be drawn"));
			return;
		}
		deadline.thenRun(() -> {
			if (!hold.isLost(System.nanoTime())) {
				watchWhileHeld(hold, token);
			}
			else {
				token.completeExceptionally(hold
					.lostException("while its fencing token was drawn (Redis did not answer the draw in time)"));
			}
		});
		token.whenComplete((value, failure) -> deadline.cancel(false));
	}

	/**
	 * Return the token a draw answered, or end the hold when the draw found it lost.
	 */
	private long tokenFrom(Hold hold, OptionalLong token) {
		if (token.isEmpty()) {
			hold.evidence.drawRejected();
			this.renewer.lost(hold, Reason.RENEWAL_REJECTED);
			throw hold.lostException("when its fencing token was drawn");
		}
		return token.getAsLong();
	}

	/**
	 * Return the hold's draw, starting it if nobody has: one draw per hold, whoever asks.
	 */
	private CompletableFuture<OptionalLong> drawOf(Hold hold) {
		CompletableFuture<OptionalLong> current = hold.fenceDraw.get();
		if (current != null) {
			return current;
		}
		CompletableFuture<OptionalLong> started = new CompletableFuture<>();
		if (!hold.fenceDraw.compareAndSet(null, started)) {
			return hold.fenceDraw.get();
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
	 * Wait for the draw until the hold's deadline, which a renewal meanwhile moves on.
	 */
	private static OptionalLong awaitWhileHeld(Hold hold, CompletableFuture<OptionalLong> draw)
			throws TimeoutException {
		while (true) {
			try {
				return Waits.awaitUninterrupted(draw, hold.lease().deadlineNanos());
			}
			catch (TimeoutException ex) {
				if (hold.isLost(System.nanoTime())) {
					throw ex;
				}
			}
		}
	}

}
