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
package io.github.setnxlock.redis.gateway;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a gateway's calls have shown of Redis: nothing yet while its first connection is
 * on its way; answering; or unreachable, from a call that failed in a way only a Redis
 * out of reach explains ({@link RedisCall#isUnreachable}), until the next answer.
 * Internal API.
 * <p>
 * Any answer counts, an error reply too, and ends the unreachable state. A failure counts
 * as evidence only if no answer came after its command was sent: a command that timed out
 * behind a slow one while later commands were answered shows a slow Redis, not an
 * unreachable one.
 * <p>
 * While the first connection is on its way, a call that stopped waiting for its answer
 * may wait on (see {@link #openingDeadline}): nothing shows Redis down while the client
 * is still setting the connection up, which takes a client that has just started longer
 * than a short wait; Redis's silence on a connection it accepted does, after
 * {@link #FIRST_ANSWER_WAIT}.
 *
 * @author setnx-lock authors
 */
public final class Reachability {

	/**
	 * How long a call waits for the first answer once the client has reached Redis (from
	 * the last step of the connection it told of); where the client does not tell, from
	 * the call's start. Also how long, from its start, an acquisition waits for its
	 * answer until one of the registry's acquisitions has had one.
	 */
	public static final Duration FIRST_ANSWER_WAIT = Duration.ofSeconds(1);

	private final boolean tracked;

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	/** Whether any answer came; guarded by this. */
	private volatile boolean answered;

	/** When the last answer came; guarded by this. */
	private long lastAnswerNanos;

	/** Why Redis is unreachable, or {@code null}; guarded by this. */
	private volatile Throwable evidence;

	/**
	 * How long the client takes at most to make a connection, when it tells when it has
	 * reached Redis; else 0.
	 */
	private volatile long connectLimitNanos;

	/**
	 * When the client last told of a step of its connection to Redis; guarded by this.
	 */
	private long reachedNanos;

	private volatile boolean reached;

	Reachability() {
		this(true);
	}

	private Reachability(boolean tracked) {
		this.tracked = tracked;
		this.answered = !tracked;
	}

	/**
	 * Return a state that nothing feeds: never opening, never unreachable (for protocols
	 * that judge their connections themselves, such as Redlock's nodes).
	 * @return the state
	 */
	public static Reachability untracked() {
		return new Reachability(false);
	}

	/**
	 * Return whether the gateway's calls feed this state, unlike one made by
	 * {@link #untracked()}.
	 * @return whether the state follows one Redis
	 */
	public boolean isTracked() {
		return this.tracked;
	}

	/**
	 * Return whether the first connection is still on its way: nothing answered yet, and
	 * nothing failed in a way that shows Redis unreachable.
	 * @return whether Redis has not been heard from, nor found out of reach
	 */
	public boolean isOpening() {
		return !this.answered && this.evidence == null;
	}

	/**
	 * Return why Redis counts as unreachable: the failure of a call that had no answer
	 * after it was sent, while no answer has come since.
	 * @return the failure, or {@code null} while Redis is not known to be unreachable
	 */
	public Throwable unreachable() {
		return this.evidence;
	}

	/**
	 * Return whether Redis answered a call of the gateway after a given time.
	 * @param nanos the {@link System#nanoTime()}
	 * @return whether an answer came since
	 */
	public synchronized boolean answeredSince(long nanos) {
		return this.tracked && this.answered && this.lastAnswerNanos - nanos > 0;
	}

	/**
	 * Return until when a call that began at the given time may wait for its answer while
	 * the first connection is on its way ({@link #isOpening()}):
	 * {@link #FIRST_ANSWER_WAIT} after the client last told of a step of its connection
	 * (it reached Redis, Redis answered its handshake, the connection is open); before it
	 * has, no more than {@link #FIRST_ANSWER_WAIT} from now and the client's connect
	 * timeout from the call's start (ask again then); {@link #FIRST_ANSWER_WAIT} from the
	 * call's start where the client does not tell.
	 * @param startNanos when the call began
	 * @return the {@link System#nanoTime()} to wait until
	 */
	public long openingDeadline(long startNanos) {
		long wait = FIRST_ANSWER_WAIT.toNanos();
		if (this.reached) {
			synchronized (this) {
				return this.reachedNanos + wait;
			}
		}
		long limit = this.connectLimitNanos;
		if (limit == 0) {
			return startNanos + wait;
		}
		long step = System.nanoTime() + wait;
		return (startNanos + limit - step < 0) ? startNanos + limit : step;
	}

	/**
	 * Note that the client will tell of the steps of its first connection
	 * ({@link #progressed()}).
	 * @param connectTimeout how long the client takes at most to make a connection
	 */
	void toldOfReach(Duration connectTimeout) {
		this.connectLimitNanos = Math.max(FIRST_ANSWER_WAIT.toNanos(), connectTimeout.toNanos());
	}

	/**
	 * Note a step of the first connection on Redis's side (a TCP connection, the
	 * handshake answered, the connection open): from now on, only Redis's silence keeps
	 * the first answer away.
	 */
	synchronized void progressed() {
		this.reachedNanos = System.nanoTime();
		this.reached = true;
	}

	/**
	 * Call a listener whenever Redis becomes unreachable, on the thread that found out;
	 * it must not block.
	 * @param listener the listener
	 */
	public void onUnreachable(Runnable listener) {
		this.listeners.add(listener);
	}

	/**
	 * Record the outcome of a call when it comes, before its caller hears it: a caller
	 * that goes on to a new call must not find its own answer counted as one that came
	 * during the new call ({@link #answeredSince(long)}).
	 * @param <T> the type of its answer
	 * @param sentNanos when the call was sent
	 * @param call its answer, to come
	 * @return the same answer, completed once recorded
	 */
	<T> CompletableFuture<T> watch(long sentNanos, CompletableFuture<T> call) {
		if (!this.tracked) {
			return call;
		}
		CompletableFuture<T> recorded = new CompletableFuture<>();
		call.whenComplete((answer, failure) -> {
			try {
				if (failure == null || RedisCall.isErrorReply(failure)) {
					answered();
				}
				else if (RedisCall.isUnreachable(failure)) {
					failed(sentNanos, failure);
				}
			}
			finally {
				if (failure == null) {
					recorded.complete(answer);
				}
				else {
					recorded.completeExceptionally(failure);
				}
			}
		});
		return recorded;
	}

	private synchronized void answered() {
		this.lastAnswerNanos = System.nanoTime();
		this.answered = true;
		this.evidence = null;
	}

	private void failed(long sentNanos, Throwable failure) {
		synchronized (this) {
			if ((this.answered && this.lastAnswerNanos - sentNanos > 0) || this.evidence != null) {
				// Answered since it was sent, or known already.
				return;
			}
			this.evidence = failure;
		}
		this.listeners.forEach(Runnable::run);
	}

}
