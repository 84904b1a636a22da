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
 * slow network would.
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
	 * Let traffic through again, at once and without delay.
	 */
	public void restore() {
		synchronized (this.flow) {
			this.cut = false;
			this.stalled = false;
			this.delayNanos = 0;
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
				Socket server = new Socket(this.targetHost, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(server);
				pump(client, server);
				pump(server, client);
			}
			catch (IOException ex) {
				// The listener was closed, or the server refused: the client sees its
				// connection end.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
					awaitFlow();
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
			}
		}, "tcp-proxy-pump");
		pump.setDaemon(true);
		pump.start();
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
