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

package io.github.setnxlock.redis.gateway;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * What a gateway hears of the client's connections: the steps of the first one, listeners
 * of reconnections, and the count of connections opened, which tells a command that may
 * have been sent twice (see {@link RedisGateway#connectionsOpened()}). The listeners live
 * as long as the gateway; the connection factory may outlive it.
 *
 * @author setnx-lock authors
 */
final class Reconnections {

	private final StringRedisTemplate redis;

	/** What stops each listener, run when the gateway closes. */
	private final List<Runnable> stops = new CopyOnWriteArrayList<>();

	/** The connections the client opened since {@link #opened()} listens. */
	private final AtomicLong opened = new AtomicLong();

	/**
	 * Whether {@link #opened} hears every connection the client opens, or the client
	 * never sends a command twice; until then each call tries to listen.
	 */
	private volatile boolean heard;

	Reconnections(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Call a listener whenever the client opens a connection again, where the client
	 * tells: Lettuce does; a pooled client does not.
	 * @param connected the listener; must not block
	 * @return whether the listener will hear reconnections
	 */
	boolean listen(Runnable connected) {
		return lettuce() && kept(LettuceReconnects.listen(this.redis.getConnectionFactory(), connected));
	}

	/**
	 * Return how many connections the client has opened since the first call.
	 */
	long opened() {
		if (!this.heard) {
			listenToConnections();
		}
		return this.opened.get();
	}

	private synchronized void listenToConnections() {
		if (this.heard) {
			return;
		}
		if (!lettuce() || !LettuceReconnects.resendsCommands(this.redis.getConnectionFactory())) {
			this.heard = true;
		}
		else if (listen(this.opened::incrementAndGet)) {
			this.heard = true;
		}
		else {
			// A factory not started yet: whatever it sends, it sends on its first
			// connection, and nothing can have run twice.
		}
	}

	/**
	 * Let the client tell a reachability the steps of its first connection, where it does
	 * (Lettuce), until the gateway closes.
	 * @param reachability what hears them
	 * @return whether the client will tell
	 */
	boolean tell(Reachability reachability) {
		return lettuce() && kept(LettuceConnects.tell(this.redis.getConnectionFactory(), reachability));
	}

	/**
	 * Stop every listener.
	 */
	void close() {
		this.stops.forEach(Runnable::run);
		this.stops.clear();
	}

	/**
	 * Keep what stops a listener until the gateway closes.
	 * @return whether there is a listener ({@code null}: the client does not tell)
	 */
	private boolean kept(Runnable stop) {
		if (stop != null) {
			this.stops.add(stop);
		}
		return stop != null;
	}

	private static boolean lettuce() {
		return ClassUtils.isPresent("io.lettuce.core.RedisClient", Reconnections.class.getClassLoader());
	}

}
