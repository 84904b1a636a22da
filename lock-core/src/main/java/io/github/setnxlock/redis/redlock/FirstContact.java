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

import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;

/**
 * The first contact of {@link RedlockCommands} with its nodes, made once, before the
 * first acquisition (or read): connecting happens on the first call to a node and may
 * take longer than a short lease, or the node timeout, on a machine that has just
 * started, and an acquisition counts its lease from before the connection. The first
 * contact reads each node's uptime ({@link RedlockRestarts}), after listening for its
 * reconnections. It is made once every node answered or failed, or
 * {@link #CONNECT_MILLIS} (at least three node timeouts) after the first answer, so that
 * one node still connecting does not count as failed for the first calls, and a node
 * frozen at start-up delays them only once.
 *
 * @author setnx-lock authors
 */
final class FirstContact {

	/** How long the first call waits for nodes still connecting, at least. */
	private static final long CONNECT_MILLIS = 1000;

	private final RedlockCommands redlock;

	private volatile CompletableFuture<?> made;

	private volatile Quorum<?, ?> call;

	FirstContact(RedlockCommands redlock) {
		this.redlock = redlock;
	}

	/**
	 * Return the first contact, made with a read of the key where restarts are not
	 * checked.
	 */
	CompletableFuture<?> made(LockKey key) {
		CompletableFuture<?> made = this.made;
		if (made == null) {
			synchronized (this) {
				if (this.made == null) {
					RedlockRestarts restarts = this.redlock.restarts;
					restarts.listen();
					Quorum<Object, Boolean> call = this.redlock.quorum(
							Math.max(CONNECT_MILLIS, 3 * this.redlock.nodeTimeoutMillis),
							(i) -> restarts.enabled() ? restarts.suspect(i).thenApply((read) -> (Object) Boolean.TRUE)
									: this.redlock.gateways.get(i).value(key).thenApply((value) -> (Object) value),
							(tally) -> (tally.pending() == 0) ? Boolean.TRUE : null);
					this.call = call;
					this.made = call.result().exceptionally((ex) -> Boolean.FALSE);
				}
				made = this.made;
			}
		}
		return made;
	}

	/** Return the first contact's call while it is under way, or {@code null}. */
	Quorum<?, ?> underWay() {
		Quorum<?, ?> call = this.call;
		return (call != null && !call.result().isDone()) ? call : null;
	}

}
