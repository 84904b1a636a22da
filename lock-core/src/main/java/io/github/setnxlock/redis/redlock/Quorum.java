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
package io.github.setnxlock.redis.redlock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.function.IntFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One call sent to every Redlock node at once, and the decision its answers lead to. The
 * decision is taken as soon as the answers so far settle it, or when the node timeout
 * (counted from the first answer, a failure included) ends, when a node that has not
 * answered counts as failed; a call no node answers fails with each node's own client
 * timeout. Nodes that lag behind ({@link LaggingNodes}) are not waited for once every
 * other node has answered. The decision completes the call on the thread that brought the
 * deciding answer (a client's event loop, or the timeout thread), so what waits for it
 * must not block there, as for any answer of a single Redis. Answers that arrive after
 * the decision are handed to a late handler, which undoes what they did where the
 * decision needs it.
 *
 * @param <T> a node's answer
 * @param <R> the decision
 * @author setnx-lock authors
 */
final class Quorum<T, R> {

	private static final Log logger = LogFactory.getLog(Quorum.class);

	private final List<String> names;

	private final long timeoutMillis;

	private final Decision<T, R> decision;

	private final LaggingNodes lagging;

	/** The lagging nodes this call does not wait for, as a bit mask. */
	private final long notWaitedFor;

	private final Object[] answers;

	private final Throwable[] failures;

	private final boolean[] timedOut;

	private final CompletableFuture<R> result = new CompletableFuture<>();

	private boolean decided;

	private R outcome;

	private ScheduledFuture<?> deadline;

	private boolean sent;

	private boolean anyArrived;

	private Quorum(List<String> names, long timeoutMillis, Decision<T, R> decision, LaggingNodes lagging) {
		this.names = names;
		this.timeoutMillis = timeoutMillis;
		this.decision = decision;
		this.lagging = lagging;
		this.notWaitedFor = lagging.notWaitedFor();
		this.answers = new Object[names.size()];
		this.failures = new Throwable[names.size()];
		this.timedOut = new boolean[names.size()];
	}

	/**
	 * Send a call to every node at once ({@code call} sends it to node {@code i}); the
	 * nodes' answers update which of them lag behind.
	 */
	static <T, R> Quorum<T, R> open(List<String> names, long timeoutMillis, IntFunction<CompletableFuture<T>> call,
			Decision<T, R> decision, LaggingNodes lagging) {
		Quorum<T, R> quorum = new Quorum<>(names, timeoutMillis, decision, lagging);
		for (int i = 0; i < names.size(); i++) {
			int node = i;
			CompletableFuture<T> answer;
			try {
				answer = call.apply(node);
			}
			catch (RuntimeException ex) {
				answer = CompletableFuture.failedFuture(ex);
			}
			answer.whenComplete((value, failure) -> quorum.arrived(node, value, failure));
		}
		synchronized (quorum) {
			quorum.sent = true;
			quorum.startTimeout();
		}
		return quorum;
	}

	CompletableFuture<R> result() {
		return this.result;
	}

	synchronized String unanswered() {
		return tally().unanswered();
	}

	/** Called with the lock held. */
	private Tally<T> tally() {
		return new Tally<>(this.names, this.answers.clone(), this.failures.clone(), this.timedOut.clone());
	}

	/** Called with the lock held. */
	private boolean pending(int node) {
		return this.answers[node] == null && this.failures[node] == null;
	}

	/** Called with the lock held. */
	private void markTimedOut(int node, String message) {
		this.timedOut[node] = true;
		this.failures[node] = new java.util.concurrent.TimeoutException(message);
	}

	private void arrived(int node, T answer, Throwable failure) {
		Throwable cause = (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null)
				? failure.getCause() : failure;
		if (cause == null) {
			this.lagging.answered(node);
		}
		boolean late;
		R decidedOutcome;
		synchronized (this) {
			late = this.decided;
			decidedOutcome = this.outcome;
			if (!late) {
				// A node's "nothing" (a GET of no key) is an answer, not a pending one.
				this.answers[node] = (cause == null && answer == null) ? Tally.NONE : answer;
				this.failures[node] = cause;
				this.timedOut[node] = false;
				this.anyArrived = true;
				startTimeout();
			}
		}
		if (late) {
			try {
				this.decision.late(decidedOutcome, node, answer, cause);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not handle the late answer of Redis node " + this.names.get(node), ex);
			}
		}
		else {
			tryDecide();
		}
	}

	/**
	 * Start the node timeout once every call is sent and a first node has answered or
	 * failed: it measures how far a node lags behind the others, so that connecting to
	 * every node on first use, or a machine that is slow for all of them, does not count
	 * against any, while nodes that refuse connections do not leave the call waiting for
	 * the client's command timeout of frozen ones.
	 */
	private void startTimeout() {
		if (this.sent && this.anyArrived && this.deadline == null && !this.decided) {
			this.deadline = RedlockTimer.schedule(this::timedOut, this.timeoutMillis);
		}
	}

	private void timedOut() {
		synchronized (this) {
			if (this.decided) {
				return;
			}
			for (int i = 0; i < this.answers.length; i++) {
				if (pending(i)) {
					markTimedOut(i, "did not answer within " + this.timeoutMillis + " ms");
					this.lagging.timedOut(i);
				}
			}
		}
		tryDecide();
	}

	private void tryDecide() {
		R decidedOutcome;
		RuntimeException error = null;
		Tally<T> tally;
		synchronized (this) {
			if (this.decided) {
				return;
			}
			tally = tally();
			try {
				decidedOutcome = this.decision.decide(tally);
				if (decidedOutcome == null && onlyLaggingPending()) {
					tally = tally();
					decidedOutcome = this.decision.decide(tally);
				}
				if (decidedOutcome == null && tally.pending() == 0) {
					throw new IllegalStateException("Undecided with every node's answer: " + tally);
				}
			}
			catch (RuntimeException ex) {
				decidedOutcome = null;
				error = ex;
			}
			if (decidedOutcome == null && error == null) {
				return;
			}
			this.decided = true;
			this.outcome = decidedOutcome;
			if (this.deadline != null) {
				this.deadline.cancel(false);
			}
		}
		try {
			this.decision.settled(decidedOutcome, tally);
		}
		catch (RuntimeException ex) {
			// A cleanup that could not be sent (a closed client) must not leave the
			// caller waiting for ever.
			logger.warn("Could not clean up after a call to the Redis nodes", ex);
		}
		finally {
			if (error != null) {
				this.result.completeExceptionally(error);
			}
			else {
				this.result.complete(decidedOutcome);
			}
		}
	}

	/**
	 * When every node still to answer lags behind, count them as timed out (their answers
	 * become late ones) and say so.
	 */
	private boolean onlyLaggingPending() {
		boolean any = false;
		for (int i = 0; i < this.answers.length; i++) {
			if (pending(i)) {
				if ((this.notWaitedFor & (1L << i)) == 0) {
					return false;
				}
				any = true;
			}
		}
		for (int i = 0; any && i < this.answers.length; i++) {
			if (pending(i)) {
				markTimedOut(i, "did not answer within " + this.timeoutMillis
						+ " ms before and lags behind: not waited for after the others answered");
			}
		}
		return any;
	}

	/**
	 * How a call's answers are decided on.
	 *
	 * @param <T> a node's answer
	 * @param <R> the decision
	 */
	interface Decision<T, R> {

		/**
		 * Decide, if the answers so far settle it: {@code null} while undecided (never
		 * once no node is pending), an exception to fail the call. Called after every
		 * answer and at the node timeout, under the quorum's lock, so it must not block.
		 */
		R decide(Tally<T> tally);

		/**
		 * Called once, after the decision ({@code null} when the call failed): undo what
		 * the answers counted did, where the decision needs it.
		 */
		default void settled(R outcome, Tally<T> tally) {
		}

		/**
		 * Called for a node whose answer, or failure, came after the decision
		 * ({@code null} when the call failed).
		 */
		default void late(R outcome, int node, T answer, Throwable failure) {
		}

	}

}
