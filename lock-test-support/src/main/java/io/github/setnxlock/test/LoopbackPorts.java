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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Free loopback ports for test servers, each handed out once per JVM. A port that a
 * killed server (or a closed proxy) gave back must not go to another test's new server:
 * the clients of the first keep reconnecting to it, and would subscribe there, or replay
 * the commands they had queued (a {@code CLIENT PAUSE}, a lock's {@code SET}) on a server
 * that is not theirs.
 *
 * @author setnx-lock authors
 */
final class LoopbackPorts {

	private static final Set<Integer> handedOut = new HashSet<>();

	private static final int ATTEMPTS = 100;

	private LoopbackPorts() {
	}

	/**
	 * Return a port that is free now and was never handed out by this JVM before.
	 * @return the port
	 */
	static synchronized int free() {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port;
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(RedisProcess.HOST))) {
				port = socket.getLocalPort();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("No free loopback port", ex);
			}
			if (handedOut.add(port)) {
				return port;
			}
		}
		throw new IllegalStateException("No loopback port that was not handed out before in " + ATTEMPTS + " tries");
	}

	/**
	 * Note a port taken without {@link #free()} (a listener bound to port 0), so that it
	 * is not handed out later.
	 * @param port the port
	 */
	static synchronized void taken(int port) {
		handedOut.add(port);
	}

}
