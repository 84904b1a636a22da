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

import java.util.ArrayList;
import java.util.List;

/**
 * Independent Redis masters for Redlock tests: {@code n} servers started with
 * {@link RedisServer#start}, without persistence, so that a {@link #restart(int)} comes
 * back empty, as a node restarted without its data does. Any of them can be stopped,
 * frozen ({@code SIGSTOP}), resumed or restarted; closing stops them all, resuming a
 * frozen one first.
 *
 * @author setnx-lock authors
 */
public final class RedisNodes implements AutoCloseable {

	private final List<RedisServer> servers;

	private final boolean[] paused;

	private RedisNodes(List<RedisServer> servers) {
		this.servers = servers;
		this.paused = new boolean[servers.size()];
	}

	/**
	 * Start the servers.
	 * @param count how many
	 * @return the running servers
	 */
	public static RedisNodes start(int count) {
		List<RedisServer> servers = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				servers.add(RedisServer.start());
			}
		}
		catch (RuntimeException ex) {
			servers.forEach(RedisServer::close);
			throw ex;
		}
		return new RedisNodes(List.copyOf(servers));
	}

	/**
	 * Return how many servers there are.
	 * @return the number of servers
	 */
	public int size() {
		return this.servers.size();
	}

	/**
	 * Return one server.
	 * @param index which, from 0
	 * @return the server
	 */
	public RedisServer node(int index) {
		return this.servers.get(index);
	}

	/**
	 * Return every server, in order.
	 * @return the servers
	 */
	public List<RedisServer> nodes() {
		return this.servers;
	}

	/**
	 * Return a server's name as a Redlock registry names its nodes: {@code host:port}.
	 * @param index which, from 0
	 * @return the name
	 */
	public String name(int index) {
		RedisServer server = node(index);
		return server.host() + ":" + server.port();
	}

	/**
	 * Kill a server at once, as a crash would.
	 * @param index which, from 0
	 */
	public void stop(int index) {
		node(index).stop();
	}

	/**
	 * Freeze a server: its connections stay open but nothing is answered.
	 * @param index which, from 0
	 */
	public synchronized void pause(int index) {
		node(index).pause();
		this.paused[index] = true;
	}

	/**
	 * Let a frozen server go on.
	 * @param index which, from 0
	 */
	public synchronized void resume(int index) {
		if (this.paused[index]) {
			node(index).resume();
			this.paused[index] = false;
		}
	}

	/**
	 * Start a server again on the same port, empty.
	 * @param index which, from 0
	 */
	public synchronized void restart(int index) {
		resume(index);
		node(index).restart();
	}

	/**
	 * Empty every server, as a test starts.
	 */
	public synchronized void flushAll() {
		for (RedisServer server : this.servers) {
			server.execute("FLUSHALL");
		}
	}

	/**
	 * Let every frozen server go on, as a test ends.
	 */
	public synchronized void resumeAll() {
		for (int i = 0; i < size(); i++) {
			resume(i);
		}
	}

	/**
	 * Count the servers that hold a key now; frozen or stopped ones are not asked.
	 * @param key the key
	 * @return how many hold it
	 */
	public synchronized int holdersOf(String key) {
		int holders = 0;
		for (int i = 0; i < size(); i++) {
			if (!this.paused[i]) {
				try {
					holders += ((Long) node(i).execute("EXISTS", key) == 1) ? 1 : 0;
				}
				catch (RuntimeException ex) {
					// A stopped server holds nothing.
				}
			}
		}
		return holders;
	}

	/**
	 * Resume every frozen server and stop them all for good.
	 */
	@Override
	public synchronized void close() {
		for (int i = 0; i < size(); i++) {
			try {
				resume(i);
			}
			finally {
				node(i).close();
			}
		}
	}

}
