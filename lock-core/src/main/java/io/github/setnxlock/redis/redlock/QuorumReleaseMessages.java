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
package io.github.setnxlock.redis.redlock;

import java.util.ArrayList;
import java.util.List;

import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.ReleaseListener;
import io.github.setnxlock.redis.gateway.ReleaseMessages;

/**
 * The release messages of Redlock: the subscription of each node, all handing to the same
 * listener, so that a release announced on any node wakes the waiters (a release heard on
 * several nodes only wakes them again). Internal API.
 * <p>
 * A waiter relies on messages only while a majority of the subscriptions listen: a holder
 * announces its release on the majority that a waiter marked, and two majorities share a
 * node, so one message at least reaches the waiter.
 *
 * @author setnx-lock authors
 */
public final class QuorumReleaseMessages implements ReleaseMessages {

	private final List<ReleaseMessages> subscriptions;

	private final int quorum;

	/**
	 * Make one subscription per node, none subscribed yet.
	 * @param gateways the nodes' gateways
	 * @param channel the release channel
	 * @param keyspacePattern the keyspace notification pattern, or {@code null}
	 * @param listener hears the released keys of every node
	 */
	public QuorumReleaseMessages(List<RedisGateway> gateways, String channel, String keyspacePattern,
			ReleaseListener listener) {
		this.subscriptions = new ArrayList<>(gateways.size());
		for (RedisGateway gateway : gateways) {
			this.subscriptions.add(gateway.subscribe(channel, keyspacePattern, listener));
		}
		this.quorum = gateways.size() / 2 + 1;
	}

	@Override
	public boolean isListening() {
		int listening = 0;
		// Every node is asked, so that each starts subscribing on the first wait.
		for (ReleaseMessages subscription : this.subscriptions) {
			listening += subscription.isListening() ? 1 : 0;
		}
		return listening >= this.quorum;
	}

	@Override
	public boolean listening() {
		return this.subscriptions.stream().filter(ReleaseMessages::listening).count() >= this.quorum;
	}

	@Override
	public boolean requested() {
		return this.subscriptions.stream().anyMatch(ReleaseMessages::requested);
	}

	@Override
	public void close() {
		for (ReleaseMessages subscription : this.subscriptions) {
			subscription.close();
		}
	}

}
