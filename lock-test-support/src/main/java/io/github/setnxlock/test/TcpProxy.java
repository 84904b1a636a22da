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
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a free loopback port in front of one server, whose traffic a test can
 * disturb while other clients still reach Redis directly:
 * <ul>
 * <li>{@link #cut()} closes every connection through it and closes new ones at once, as a
 * peer that resets connections would look to the client;
 * <li>{@link #stall()} holds every byte in both directions while connections stay open,
 * as a network partition looks to TCP: nothing arrives, nothing fails, until the
 * partition heals and what was held is delivered;
 * <li>{@link #delay(Duration)} holds each chunk for a while before passing it on, as a
 * slow network would;
 * <li>{@link #loseRepliesTo(String, int)} passes a request on to the server, then closes
 * its connection instead of passing the server's reply back: the command ran, and the
 * client never hears so. A client that reconnects and sends its unanswered commands again
 * (Lettuce's default) makes the server run them twice;
 * <li>{@link #delayRepliesTo(String, Duration)} holds the replies on a connection from a
 * request that holds a text on, as a client slow to read its first answers would look.
 * </ul>
 * {@link #restore()} ends all of them.
 *
 * @author setnx-lock authors
 */
public final class TcpProxy implements AutoCloseable {

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket listener;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	private volatile boolean stalled;

	private volatile long delayNanos;

	private final LostReplies lostReplies = new LostReplies();

	private final HeldReplies heldReplies = new HeldReplies();

	private final Object flow = new Object();

	private TcpProxy(String targetHost, int targetPort) throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
		LoopbackPorts.taken(this.listener.getLocalPort());
		Thread acceptor = new Thread(this::accept, "tcp-proxy-" + this.listener.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Start a proxy in front of a server.
	 * @param server the server
	 * @return the running proxy
	 */
	public static TcpProxy start(RedisServer server) {
		try {
			return new TcpProxy(server.host(), server.port());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start a proxy for " + server, ex);
		}
	}

	/**
	 * Return the port clients connect to instead of the server's.
	 * @return the proxy's port
	 */
	public int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Close every connection through the proxy, and every new one, until
	 * {@link #restore()}.
	 */
	public void cut() {
		this.cut = true;
		this.sockets.forEach(TcpProxy::closeQuietly);
	}

	/**
	 * Hold all traffic through the proxy, keeping its connections open, until
	 * {@link #restore()}.
	 */
	public void stall() {
		this.stalled = true;
	}

	/**
	 * Hold each chunk of traffic, in both directions, for a while before passing it on.
	 * @param delay how long; zero for none
	 */
	public void delay(Duration delay) {
		this.delayNanos = delay.toNanos();
	}

	/**
	 * Lose the replies to the next requests that hold a text: each such request reaches
	 * the server, which runs it, and its connection is closed when the server's answer
	 * comes, before the client sees any of it. Requests are matched per chunk read from
	 * the client, as RESP text ({@code "SET"}, a script's SHA-1, a key), so a pipelined
	 * chunk counts once.
	 * @param fragment what the request holds
	 * @param times how many replies to lose
	 */
	public void loseRepliesTo(String fragment, int times) {
		loseRepliesTo(fragment, times, false);
	}

	/**
	 * Lose the replies to the next requests that hold a text, as
	 * {@link #loseRepliesTo(String, int)}, and, if asked, close every new connection from
	 * the first lost reply on until {@link #restore()}: the client cannot send its
	 * unanswered command again until the test lets it.
	 * @param fragment what the request holds
	 * @param times how many replies to lose
	 * @param cutAfterwards whether to refuse connections after a lost reply
	 */
	public void loseRepliesTo(String fragment, int times, boolean cutAfterwards) {
		this.lostReplies.arm(fragment, times, cutAfterwards, false);
	}

	/**
	 * Lose the replies to the next requests that hold a text, as
	 * {@link #loseRepliesTo(String, int)}, but reset the client's connection (a TCP
	 * {@code RST}) instead of closing it, as a server that crashed with the request
	 * unanswered does: the client reads "connection reset", not an end of stream.
	 * @param fragment what the request holds
	 * @param times how many replies to lose
	 */
	public void resetOnRepliesTo(String fragment, int times) {
		this.lostReplies.arm(fragment, times, false, true);
	}

	/**
	 * Hold the replies on a connection, from the reply to a request that holds a text on
	 * (and a reply still held for an earlier request), until a while after that request
	 * passed the proxy. Requests are matched per chunk read from the client, as
	 * {@link #loseRepliesTo(String, int)} matches them. Several texts can be armed at
	 * once.
	 * @param fragment what the request holds
	 * @param delay how long after the request its reply may pass
	 */
	public void delayRepliesTo(String fragment, Duration delay) {
		this.heldReplies.arm(fragment, delay);
	}

	/**
	 * Return how many requests that hold a text passed since
	 * {@link #delayRepliesTo(String, Duration)} last armed it.
	 * @param fragment the text
	 * @return the number of requests, 0 for a text not armed
	 */
	public int delayedRequests(String fragment) {
		return this.heldReplies.requests(fragment);
	}

	/**
	 * Return how many replies were lost so far (see {@link #loseRepliesTo}).
	 * @return the number of connections closed before their reply
	 */
	public int lostReplies() {
		return this.lostReplies.lost();
	}

	/**
	 * Let traffic held by {@link #stall()} through, keeping the other faults armed (a
	 * delay, replies to lose, a cut).
	 */
	public void resume() {
		synchronized (this.flow) {
			this.stalled = false;
			this.flow.notifyAll();
		}
	}

	/**
	 * Let traffic through again, at once and without delay, and lose no more replies.
	 */
	public void restore() {
		synchronized (this.flow) {
			this.cut = false;
			this.stalled = false;
			this.delayNanos = 0;
			this.lostReplies.clear();
			this.heldReplies.clear();
			this.flow.notifyAll();
		}
	}

	private void awaitFlow() throws InterruptedException {
		synchronized (this.flow) {
			while (this.stalled) {
				this.flow.wait();
			}
		}
		long delay = this.delayNanos;
		if (delay > 0) {
			Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
		}
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket server;
				try {
					server = new Socket(this.targetHost, this.targetPort);
				}
				catch (IOException ex) {
					// A server that is down refuses the client, as it would without
					// the proxy, rather than leave it waiting for an answer.
					closeQuietly(client);
					continue;
				}
				this.sockets.add(client);
				this.sockets.add(server);
				Connection connection = new Connection(this.heldReplies.opened());
				pump(client, server, connection, true);
				pump(server, client, connection, false);
			}
			catch (IOException ex) {
				// The listener was closed.
			}
		}
	}

	private void pump(Socket from, Socket to, Connection connection, boolean requests) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
					awaitFlow();
					if (requests) {
						this.heldReplies.request(buffer, read, connection.replies);
					}
					else {
						connection.replies.await();
					}
					if (requests && this.lostReplies.losesReplyTo(buffer, read)) {
						// Armed before the request goes on, so that its reply cannot pass
						// first.
						connection.loseReply = true;
					}
					if (!requests && connection.loseReply) {
						if (this.lostReplies.cutsAfterwards()) {
							this.cut = true;
						}
						if (this.lostReplies.resets()) {
							to.setSoLinger(true, 0);
						}
						this.lostReplies.lostOne();
						return;
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// One side went away.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.sockets.remove(from);
				this.sockets.remove(to);
				this.heldReplies.closed(connection.replies);
			}
		}, "tcp-proxy-pump");
		pump.setDaemon(true);
		pump.start();
	}

	/**
	 * What the two pumps of one connection share.
	 */
	private static final class Connection {

		/** Whether the next reply on this connection is lost, with the connection. */
		volatile boolean loseReply;

		/** The replies held back on this connection. */
		final HeldReplies.Hold replies;

		Connection(HeldReplies.Hold replies) {
			this.replies = replies;
		}

	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing is all we wanted.
		}
	}

	@Override
	public void close() {
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// Closing is all we wanted.
		}
		this.sockets.forEach(TcpProxy::closeQuietly);
		// Stalled pumps wake up to find their sockets closed, and end.
		restore();
	}

}
