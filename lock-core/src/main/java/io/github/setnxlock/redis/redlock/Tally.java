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
import java.util.function.Predicate;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisCall;

/**
 * The answers of the Redlock nodes to one {@link Quorum} call at one moment.
 *
 * @param <T> a node's answer
 * @author setnx-lock authors
 */
final class Tally<T> {

	static final Object NONE = new Object();

	private final List<String> names;

	private final Object[] answers;

	private final Throwable[] failures;

	private final boolean[] timedOut;

	Tally(List<String> names, Object[] answers, Throwable[] failures, boolean[] timedOut) {
		this.names = names;
		this.answers = answers;
		this.failures = failures;
		this.timedOut = timedOut;
	}

	int size() {
		return this.answers.length;
	}

	int quorum() {
		return size() / 2 + 1;
	}

	String nodeName(int node) {
		return this.names.get(node);
	}

	boolean answered(int node) {
		return this.answers[node] != null;
	}

	boolean failed(int node) {
		return this.failures[node] != null;
	}

	/** Whether a node had not answered when the node timeout ended; it may still. */
	boolean timedOut(int node) {
		return this.timedOut[node];
	}

	/** Whether a node failed in a way that may have let the call run. */
	boolean mayHaveRun(int node) {
		return this.failures[node] != null && !this.timedOut[node] && RedisCall.mayHaveRun(this.failures[node]);
	}

	@SuppressWarnings("unchecked")
	T answer(int node) {
		Object answer = this.answers[node];
		return (answer == NONE) ? null : (T) answer;
	}

	int answered() {
		return count((answer) -> true);
	}

	int failed() {
		int failed = 0;
		for (Throwable failure : this.failures) {
			failed += (failure != null) ? 1 : 0;
		}
		return failed;
	}

	int pending() {
		return size() - answered() - failed();
	}

	int count(Predicate<? super T> matches) {
		return Long.bitCount(mask(matches));
	}

	long mask(Predicate<? super T> matches) {
		long mask = 0;
		for (int i = 0; i < size(); i++) {
			if (answered(i) && matches.test(answer(i))) {
				mask |= 1L << i;
			}
		}
		return mask;
	}

	/**
	 * Return the error of a call that did not reach enough nodes, naming each node that
	 * failed and how, never with credentials: nodes are named by {@code host:port}.
	 */
	LockAccessException unreachable(LockKey key, String action, String found) {
		StringBuilder message = new StringBuilder("Could not " + action + " lock '" + key.key() + "' on a majority ("
				+ quorum() + " of " + size() + ") of the Redis nodes: " + found);
		Throwable cause = null;
		for (int i = 0; i < size(); i++) {
			if (failed(i)) {
				message.append("; ").append(this.names.get(i)).append(' ').append(describe(i));
				if (cause == null || (!RedisCall.mayHaveRun(cause) && RedisCall.mayHaveRun(this.failures[i]))) {
					cause = this.failures[i];
				}
			}
		}
		return new LockAccessException(key.key(), message.toString(), cause);
	}

	/**
	 * Say which nodes an undecided call still waits for, and which failed, for the error
	 * of a caller whose wait ended first.
	 */
	String unanswered() {
		StringBuilder waiting = new StringBuilder();
		StringBuilder failed = new StringBuilder();
		for (int i = 0; i < size(); i++) {
			if (!answered(i) && !failed(i)) {
				waiting.append((waiting.length() > 0) ? ", " : "").append(this.names.get(i));
			}
			else if (failed(i)) {
				failed.append("; ").append(this.names.get(i)).append(' ').append(describe(i));
			}
		}
		return "no answer yet from the Redis node(s) " + waiting + " (a majority is " + quorum() + " of " + size() + ")"
				+ failed;
	}

	/** Describe how a node failed: timed out, or its error. */
	String describe(int node) {
		Throwable failure = this.failures[node];
		return this.timedOut[node] ? failure.getMessage() : "failed: " + RedisCall.describe(failure);
	}

	@Override
	public String toString() {
		return "Tally[answered=" + answered() + ", failed=" + failed() + ", of " + size() + "]";
	}

}
