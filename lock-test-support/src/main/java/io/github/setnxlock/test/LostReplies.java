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

package io.github.setnxlock.test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The replies a {@link TcpProxy} loses ({@link TcpProxy#loseRepliesTo}): the next
 * requests that hold an armed text reach the server, and their connection ends when the
 * answer comes, closed or reset, before the client sees any of it.
 *
 * @author setnx-lock authors
 */
final class LostReplies {

	/** What a request holds whose reply is lost, or {@code null}. */
	private volatile String fragment;

	/** How many more replies are to be lost. */
	private final AtomicInteger left = new AtomicInteger();

	/** Whether a lost reply cuts the proxy (see {@link TcpProxy#cut()}). */
	private volatile boolean cutAfterwards;

	/** Whether a lost reply resets the client's connection rather than closing it. */
	private volatile boolean reset;

	private final AtomicInteger lost = new AtomicInteger();

	void arm(String fragment, int times, boolean cutAfterwards, boolean reset) {
		this.reset = reset;
		this.cutAfterwards = cutAfterwards;
		this.left.set(times);
		this.fragment = fragment;
	}

	void clear() {
		this.fragment = null;
		this.left.set(0);
		this.cutAfterwards = false;
		this.reset = false;
	}

	/**
	 * Whether a request loses its reply; counts it off the armed number if so.
	 */
	boolean losesReplyTo(byte[] request, int length) {
		String armed = this.fragment;
		if (armed == null || !new String(request, 0, length, StandardCharsets.ISO_8859_1).contains(armed)) {
			return false;
		}
		return this.left.getAndUpdate((count) -> Math.max(0, count - 1)) > 0;
	}

	boolean cutsAfterwards() {
		return this.cutAfterwards;
	}

	boolean resets() {
		return this.reset;
	}

	void lostOne() {
		this.lost.incrementAndGet();
	}

	int lost() {
		return this.lost.get();
	}

}
