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

package io.github.setnxlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The registry's one subscription to the release channel: each message names a released
 * lock key, and wakes the thread of this JVM that waits for that key.
 * <p>
 * It subscribes on the first wait, not when the registry is created, so nothing talks to
 * Redis before a lock is used. Until the subscription is confirmed, and whenever the
 * subscription connection is lost, waiters fall back to short re-checks; when it is
 * (re)established every waiter is woken once, since releases may have gone unheard in the
 * gap. The container reconnects by itself.
 *
 * @author setnx-lock authors
 */
final class ReleaseMessages implements MessageListener, SubscriptionListener, AutoCloseable {

	private static final Log logger = LogFactory.getLog(ReleaseMessages.class);

	private final StringRedisTemplate redis;

	private final String channel;

	private final KeyStates states;

	private final CommandRunner runner;

	private final AtomicBoolean started = new AtomicBoolean();

	private volatile boolean listening;

	private volatile boolean closed;

	private volatile RedisMessageListenerContainer container;

	ReleaseMessages(StringRedisTemplate redis, String channel, KeyStates states, CommandRunner runner) {
		this.redis = redis;
		this.channel = channel;
		this.states = states;
		this.runner = runner;
	}

	/**
	 * Whether release messages are being received, so that a waiter may rely on them.
	 * Subscribes, in the background, on the first call.
	 * @return {@code true} while subscribed
	 */
	boolean isListening() {
		if (!this.started.get() && this.started.compareAndSet(false, true)) {
			this.runner.submit(() -> {
				subscribe();
				return null;
			});
		}
		return this.listening;
	}

	private void subscribe() {
		RedisMessageListenerContainer subscriber = new RedisMessageListenerContainer();
		subscriber.setConnectionFactory(this.redis.getRequiredConnectionFactory());
		// The listener only signals a condition: run it on the subscription's own thread
		// rather than a new thread per message.
		subscriber.setTaskExecutor(Runnable::run);
		subscriber.setRecoveryInterval(1000);
		subscriber.setBeanName("setnx-lock-release-messages");
		subscriber.addMessageListener(this, new ChannelTopic(this.channel));
		subscriber.afterPropertiesSet();
		this.container = subscriber;
		try {
			if (!this.closed) {
				subscriber.start();
			}
		}
		catch (RuntimeException ex) {
			// The container keeps trying; waiters re-check meanwhile.
			logger.debug("Could not subscribe to lock release channel '" + this.channel + "' yet", ex);
		}
	}

	@Override
	public void onMessage(Message message, byte[] pattern) {
		KeyStates.KeyState state = this.states.find(new String(message.getBody(), StandardCharsets.UTF_8));
		if (state != null) {
			state.releaseAnnounced();
		}
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.listening = true;
		this.states.forEach(KeyStates.KeyState::releaseAnnounced);
	}

	@Override
	public void onChannelUnsubscribed(byte[] channel, long count) {
		this.listening = false;
		this.states.forEach(KeyStates.KeyState::releaseAnnounced);
	}

	@Override
	public void close() {
		this.closed = true;
		this.listening = false;
		RedisMessageListenerContainer subscriber = this.container;
		if (subscriber != null) {
			try {
				subscriber.destroy();
			}
			catch (Exception ex) {
				logger.debug("Could not stop the lock release subscription", ex);
			}
		}
	}

}
