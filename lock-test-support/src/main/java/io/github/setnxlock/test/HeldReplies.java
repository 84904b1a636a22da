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
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The replies a {@link TcpProxy} holds back ({@link TcpProxy#delayRepliesTo}): a request
 * that holds an armed text holds the replies of its connection, its own and those after
 * it, until a while after the request passed. Each connection has a {@link Hold}.
 *
 * @author setnx-lock authors
 */
final class HeldReplies {

	/** How long the replies are held, by what their request holds. */
	private final Map<String, Long> delays = new ConcurrentHashMap<>();

	/** How many requests held each armed text. */
	private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

	private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

	void arm(String fragment, Duration delay) {
		this.requests.put(fragment, new AtomicInteger());
		this.delays.put(fragment, delay.toNanos());
	}

	int requests(String fragment) {
		AtomicInteger count = this.requests.get(fragment);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Return the hold of a new connection, until {@link #closed(Hold)}.
	 */
	Hold opened() {
		Hold hold = new Hold();
		this.holds.add(hold);
		return hold;
	}

	void closed(Hold hold) {
		this.holds.remove(hold);
	}

	/**
	 * Hold the connection's replies for the longest delay armed for a text the request
	 * holds, before the request goes on (so that its reply cannot pass first).
	 */
	void request(byte[] request, int length, Hold hold) {
		if (this.delays.isEmpty()) {
			return;
		}
		String text = new String(request, 0, length, StandardCharsets.ISO_8859_1);
		long now = System.nanoTime();
		this.delays.forEach((fragment, delay) -> {
			if (text.contains(fragment)) {
				hold.until(now + delay);
				this.requests.get(fragment).incrementAndGet();
			}
		});
	}

	/**
	 * Hold no more replies, and let those held go.
	 */
	void clear() {
		this.delays.clear();
		this.holds.forEach(Hold::release);
	}

	/**
	 * The replies held on one connection.
	 */
	static final class Hold {

		/** Until when replies are held ({@link System#nanoTime()}); guarded by this. */
		private long until = System.nanoTime();

		/** How many times {@link #release()} let held replies go; guarded by this. */
		private long releases;

		synchronized void until(long nanos) {
			if (nanos - this.until > 0) {
				this.until = nanos;
			}
		}

		synchronized void release() {
			this.until = System.nanoTime();
			this.releases++;
			notifyAll();
		}

		/**
		 * Wait until the replies read now may pass: as long as the holds armed so far say
		 * (a request that comes meanwhile holds the replies after these), or until
		 * {@link #release()}.
		 */
		synchronized void await() throws InterruptedException {
			long end = this.until;
			long released = this.releases;
			for (long left = end - System.nanoTime(); left > 0
					&& released == this.releases; left = end - System.nanoTime()) {
				TimeUnit.NANOSECONDS.timedWait(this, left);
			}
		}

	}

}
