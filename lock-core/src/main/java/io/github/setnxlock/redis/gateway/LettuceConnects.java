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

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.connection.ConnectedEvent;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Tells a {@link Reachability} how a Lettuce factory's client gets on with its first
 * connection: when it has a TCP connection to a server ({@link ConnectedEvent}, before
 * the handshake) and when the server answered the handshake
 * ({@link ConnectionActivatedEvent}). The time a client that has just started spends
 * setting its connection up then does not count against Redis; only Redis's silence does.
 *
 * @author setnx-lock authors
 */
final class LettuceConnects {

	private LettuceConnects() {
	}

	/**
	 * Tell the state when the factory's client reaches a server and gets its handshake
	 * answered, until the first answer of a call, and how long the client gives a
	 * connection to be made.
	 * @param factory the factory
	 * @param reachability the state to tell
	 * @return what stops the listening, or {@code null} when the factory is not a started
	 * Lettuce factory, and so nothing will be told
	 */
	static Runnable tell(RedisConnectionFactory factory, Reachability reachability) {
		AbstractRedisClient client = LettuceReconnects.clientOf(factory);
		if (client == null) {
			return null;
		}
		Disposable listening = client.getResources()
			.eventBus()
			.get()
			.takeWhile((event) -> reachability.isOpening())
			.filter((event) -> event instanceof ConnectedEvent || event instanceof ConnectionActivatedEvent)
			.subscribe((event) -> reachability.progressed());
		reachability.toldOfReach(client.getOptions().getSocketOptions().getConnectTimeout());
		return listening::dispose;
	}

}
