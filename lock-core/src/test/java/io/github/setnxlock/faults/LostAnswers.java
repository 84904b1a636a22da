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

package io.github.setnxlock.faults;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.github.setnxlock.test.TcpProxy;

/**
 * Loses the answer to a lock command now and then, on a random one of some proxies, with
 * its connection, until closed: Redis ran the command, the client never hears so, and a
 * client that reconnects (Lettuce's default) sends it again. Fault runs use it to show
 * that a lost answer makes no second holder, leaves no key and reports no loss.
 *
 * @author setnx-lock authors
 */
final class LostAnswers implements AutoCloseable {

	private final List<TcpProxy> proxies;

	private final String requestFragment;

	private final Thread thread;

	private volatile boolean closed;

	/**
	 * Start losing answers.
	 * @param proxies the proxies in front of the lock servers
	 * @param requestFragment what a request whose answer may be lost holds (the lock
	 * keys' common beginning)
	 */
	LostAnswers(List<TcpProxy> proxies, String requestFragment) {
		this.proxies = proxies;
		this.requestFragment = requestFragment;
		this.thread = new Thread(this::run, "lost-answers");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void run() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (!this.closed) {
			this.proxies.get(random.nextInt(this.proxies.size())).loseRepliesTo(this.requestFragment, 1);
			try {
				Thread.sleep(random.nextLong(100, 400));
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	int lost() {
		return this.proxies.stream().mapToInt(TcpProxy::lostReplies).sum();
	}

	@Override
	public void close() throws InterruptedException {
		this.closed = true;
		this.thread.interrupt();
		this.thread.join();
		this.proxies.forEach(TcpProxy::restore);
	}

}
