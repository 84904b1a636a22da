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

import java.net.SocketAddress;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Hears every connection a Lettuce factory's client opens, reconnections included. The
 * client fires the event on the connection's event loop while the connection becomes
 * active, after the handshake and before any command sent on it can have been answered,
 * so whatever the listener does happens before the first answer on that connection is
 * handed over.
 *
 * @author setnx-lock authors
 */
final class LettuceReconnects {

	private LettuceReconnects() {
	}

	/**
	 * Return the client of a started Lettuce factory.
	 * @param factory the factory
	 * @return its client, or {@code null} when the factory is not a started Lettuce
	 * factory
	 */
	static AbstractRedisClient clientOf(RedisConnectionFactory factory) {
		return (factory instanceof LettuceConnectionFactory lettuce) ? lettuce.getNativeClient() : null;
	}

	/**
	 * Whether a factory's client may send a command again on a new connection: a Lettuce
	 * client does, after a reconnect, the commands the old connection had not answered.
	 * @param factory the factory
	 * @return {@code true} for a Lettuce factory
	 */
	static boolean resendsCommands(RedisConnectionFactory factory) {
		return factory instanceof LettuceConnectionFactory;
	}

	/**
	 * Call a listener on every connection the factory's client opens from now on.
	 * @param factory the factory
	 * @param connected the listener; must not block
	 * @return what stops the listening, or {@code null} when the factory is not a started
	 * Lettuce factory, and so nothing will be heard
	 */
	static Runnable listen(RedisConnectionFactory factory, Runnable connected) {
		AbstractRedisClient client = clientOf(factory);
		if (client == null) {
			return null;
		}
		RedisConnectionStateListener listener = new RedisConnectionStateListener() {

			@Override
			public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
				connected.run();
			}

		};
		client.addListener(listener);
		return () -> client.removeListener(listener);
	}

}
