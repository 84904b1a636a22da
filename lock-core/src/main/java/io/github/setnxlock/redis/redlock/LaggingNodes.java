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

import java.util.concurrent.atomic.AtomicLong;

/**
 * The Redlock nodes that lag behind: a node that let a call's node timeout pass without
 * answering lags until it answers a call again, and a call is decided without waiting for
 * lagging nodes once every other node has answered, as long as they are a minority.
 * <p>
 * Why: while a minority is frozen, every call would otherwise wait the node timeout for
 * it. For acquisitions that is a liveness trap, not only a delay: contenders that split
 * the live nodes between them keep their partial keys for the whole node timeout, retry,
 * and split again, so that nobody gets the lock for as long as the freeze lasts. Deciding
 * as soon as the live nodes have answered lets a losing attempt undo its keys within a
 * round trip, and a contender then takes the lock after a back-off pause. Calls are still
 * sent to a lagging node, so its first answer (kept, or undone, by the call's late
 * handler) ends its lag; a node that recovers costs at most one call that counted it as
 * failed. A majority that lags is waited for as usual, since no call can be decided
 * without it.
 *
 * @author setnx-lock authors
 */
final class LaggingNodes {

	private final int size;

	private final AtomicLong lagging = new AtomicLong();

	LaggingNodes(int size) {
		this.size = size;
	}

	/** Return the nodes a call opened now does not wait for, as a bit mask. */
	long notWaitedFor() {
		long lagging = this.lagging.get();
		return (Long.bitCount(lagging) <= this.size - (this.size / 2 + 1)) ? lagging : 0;
	}

	/** Record that a node let a call's node timeout pass. */
	void timedOut(int node) {
		long bit = 1L << node;
		this.lagging.getAndUpdate((lagging) -> lagging | bit);
	}

	/** Record that a node answered, in time or late. */
	void answered(int node) {
		long bit = 1L << node;
		if ((this.lagging.get() & bit) != 0) {
			this.lagging.getAndUpdate((lagging) -> lagging & ~bit);
		}
	}

}
