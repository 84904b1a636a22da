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
import java.util.Objects;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.redis.gateway.RedisCall;

/**
 * Tells who listens of each Redlock node that failed its part of a call: at the decision,
 * the nodes that had failed or timed out by then; afterwards, a node that was still to
 * answer and then failed (a frozen node's command timing out in its client). Each node is
 * told once per call, on the thread that brought the news, which the listener must not
 * hold up.
 *
 * @author setnx-lock authors
 */
final class NodeFailures {

	private static final Log logger = LogFactory.getLog(NodeFailures.class);

	private final List<String> names;

	private volatile Consumer<LockListener.NodeFailure> listener = (failure) -> {
	};

	NodeFailures(List<String> names) {
		this.names = names;
	}

	void tell(Consumer<LockListener.NodeFailure> listener) {
		this.listener = Objects.requireNonNull(listener, "nodeFailures must not be null");
	}

	/**
	 * Return a decision that reports the failed nodes of its call, and otherwise decides
	 * as the given one.
	 */
	<T, R> Quorum.Decision<T, R> reporting(Quorum.Decision<T, R> decision) {
		return new Reported<>(decision);
	}

	private void report(int node, boolean timedOut, String cause) {
		String name = this.names.get(node);
		try {
			this.listener.accept(new LockListener.NodeFailure(name, timedOut, cause));
		}
		catch (RuntimeException ex) {
			logger.warn("Could not report the failure of Redis node " + name, ex);
		}
	}

	private final class Reported<T, R> implements Quorum.Decision<T, R> {

		private final Quorum.Decision<T, R> decision;

		private final boolean[] reported = new boolean[NodeFailures.this.names.size()];

		Reported(Quorum.Decision<T, R> decision) {
			this.decision = decision;
		}

		@Override
		public R decide(Tally<T> tally) {
			return this.decision.decide(tally);
		}

		@Override
		public void settled(R outcome, Tally<T> tally) {
			for (int i = 0; i < tally.size(); i++) {
				if (tally.failed(i) && once(i)) {
					report(i, tally.timedOut(i), tally.describe(i));
				}
			}
			this.decision.settled(outcome, tally);
		}

		@Override
		public void late(R outcome, int node, T answer, Throwable failure) {
			if (failure != null && once(node)) {
				report(node, RedisCall.isTimeout(failure), "failed: " + RedisCall.describe(failure));
			}
			this.decision.late(outcome, node, answer, failure);
		}

		private synchronized boolean once(int node) {
			boolean first = !this.reported[node];
			this.reported[node] = true;
			return first;
		}

	}

}
