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

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;

/**
 * The registry's one subscription to the release channel: each message names a released
 * lock key, which it hands to a {@link ReleaseListener} (the engine, which wakes the
 * waiters of that key). Internal API.
 * <p>
 * It subscribes on the first wait, not when the registry is created, so nothing talks to
 * Redis before a lock is used. Until the subscription is confirmed, and whenever the
 * subscription connection is lost, waiters fall back to short re-checks; when it is
 * (re)established every waiter is woken once, since releases may have gone unheard in the
 * gap. The container reconnects by itself.
 *
 * @author setnx-lock authors
 */
final class ReleaseSubscription implements ReleaseMessages, MessageListener, SubscriptionListener {

	private static final Log logger = LogFactory.getLog(ReleaseSubscription.class);

	private static final long CLOSE_WAIT_MILLIS = 5000;

	private static final Set<String> FREEING_EVENTS = Set.of("del", "expired", "evicted", "unlink");

	private final StringRedisTemplate redis;

	private final String channel;

	private final String keyspacePattern;

	private final ReleaseListener listener;

	private final CommandRunner runner;

	private final AtomicBoolean started = new AtomicBoolean();

	private volatile boolean listening;

	private volatile boolean closed;

	private volatile RedisMessageListenerContainer container;

	private final Object subscribingLock = new Object();

	/**
	 * The runner thread starting the container, which {@link #close()} may interrupt;
	 * guarded by {@link #subscribingLock}, so that an interrupt never reaches the thread
	 * once it has moved on to another command.
	 */
	private Thread subscribing;

	/**
	 * Create the subscription, not yet subscribed.
	 * @param redis the template whose connection factory subscribes
	 * @param channel the release channel
	 * @param keyspacePattern the keyspace notification pattern of the lock keys, or
	 * {@code null} not to listen to keyspace notifications
	 * @param listener hears the released keys
	 * @param runner runs the subscription in the background
	 */
	ReleaseSubscription(StringRedisTemplate redis, String channel, String keyspacePattern, ReleaseListener listener,
			CommandRunner runner) {
		this.redis = redis;
		this.channel = channel;
		this.keyspacePattern = keyspacePattern;
		this.listener = listener;
		this.runner = runner;
	}

	/**
	 * Whether release messages are being received, so that a waiter may rely on them.
	 * Subscribes, in the background, on the first call.
	 * @return {@code true} while subscribed
	 */
	@Override
	public boolean isListening() {
		if (!this.started.get() && this.started.compareAndSet(false, true)) {
			try {
				this.runner.submit(() -> {
					subscribe();
					return null;
				});
			}
			catch (RuntimeException ex) {
				// No thread to subscribe on now (a stalled Redis holds them all, or the
				// registry is closing): a later wait tries again; waiters re-check
				// meanwhile.
				this.started.set(false);
			}
		}
		return this.listening;
	}

	private void subscribe() {
		RedisMessageListenerContainer subscriber = new RecoveringContainer();
		subscriber.setConnectionFactory(this.redis.getRequiredConnectionFactory());
		// The listener only signals a condition: run it on the subscription's own thread
		// rather than a new thread per message.
		subscriber.setTaskExecutor(Runnable::run);
		// A client whose subscription blocks (Jedis) listens on a thread of its own, not
		// on the one that subscribes, which must return, nor on the listener's inline
		// executor, which would never let the subscription stop.
		subscriber.setSubscriptionExecutor((task) -> {
			Thread listening = new Thread(task, "setnx-lock-release-subscription");
			listening.setDaemon(true);
			listening.start();
		});
		subscriber.setRecoveryInterval(1000);
		subscriber.setBeanName("setnx-lock-release-messages");
		subscriber.addMessageListener(this, new ChannelTopic(this.channel));
		if (this.keyspacePattern != null) {
			subscriber.addMessageListener(this, new PatternTopic(this.keyspacePattern));
		}
		subscriber.afterPropertiesSet();
		this.container = subscriber;
		synchronized (this.subscribingLock) {
			if (this.closed) {
				return;
			}
			this.subscribing = Thread.currentThread();
		}
		try {
			subscriber.start();
		}
		catch (RuntimeException ex) {
			// The container keeps trying; waiters re-check meanwhile.
			logger.debug("Could not subscribe to lock release channel '" + this.channel + "' yet", ex);
		}
		finally {
			synchronized (this.subscribingLock) {
				this.subscribing = null;
			}
			// An interrupt from close() that came after the start returned is no
			// concern of the command this runner thread runs next.
			Thread.interrupted();
		}
	}

	/**
	 * Whether release messages are being received, without subscribing.
	 * @return {@code true} while subscribed
	 */
	@Override
	public boolean listening() {
		return this.listening;
	}

	/**
	 * Whether a subscription was asked for: by the first wait, which
	 * {@link #isListening()} starts. Until then, no release message can be received.
	 * @return {@code true} once a subscription was asked for
	 */
	@Override
	public boolean requested() {
		return this.started.get();
	}

	@Override
	public void onMessage(Message message, byte[] pattern) {
		String key;
		String channel = new String(message.getChannel(), StandardCharsets.UTF_8);
		if (channel.equals(this.channel)) {
			key = new String(message.getBody(), StandardCharsets.UTF_8);
		}
		else {
			// A keyspace notification: the channel is __keyspace@<db>__:<key>, the
			// body the event. Only the events that free a key matter.
			String event = new String(message.getBody(), StandardCharsets.UTF_8);
			if (!FREEING_EVENTS.contains(event)) {
				return;
			}
			key = channel.substring(channel.indexOf("__:") + 3);
		}
		this.listener.released(key);
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.listening = true;
		this.listener.mayHaveMissed();
	}

	@Override
	public void onChannelUnsubscribed(byte[] channel, long count) {
		this.listening = false;
		this.listener.mayHaveMissed();
	}

	@Override
	public void close() {
		this.closed = true;
		this.listening = false;
		RedisMessageListenerContainer subscriber = this.container;
		if (subscriber == null) {
			return;
		}
		// A subscription that is still connecting to a Redis that does not answer holds
		// the container's lock: interrupt it, and never let closing wait for long.
		synchronized (this.subscribingLock) {
			if (this.subscribing != null) {
				this.subscribing.interrupt();
			}
		}
		Thread stopping = new Thread(() -> {
			try {
				subscriber.destroy();
			}
			catch (Exception ex) {
				logger.debug("Could not stop the lock release subscription", ex);
			}
		}, "setnx-lock-release-messages-stop");
		stopping.setDaemon(true);
		stopping.start();
		try {
			stopping.join(CLOSE_WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (stopping.isAlive()) {
			logger.warn("The lock release subscription did not stop within " + CLOSE_WAIT_MILLIS + " ms; leaving it");
		}
	}

	/**
	 * A container that makes a subscription again when it broke with its connection (a
	 * reset, a closed channel) while being made, as it does when it could not connect at
	 * all: Spring Data Redis gives up on the former for good, and the registry's waiters
	 * would never be woken by a release message again (a primary that dies while the
	 * subscription is made does that). Other failures, such as a refused right, are left
	 * as they are: retrying would not help.
	 */
	private static final class RecoveringContainer extends RedisMessageListenerContainer {

		@Override
		protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOffExecution,
				Throwable ex) {
			super.handleSubscriptionException(future, backOffExecution,
					(!(ex instanceof RedisConnectionFailureException) && RedisCall.isUnreachable(ex))
							? new RedisConnectionFailureException("Subscription broke with its connection", ex) : ex);
		}

	}

}
