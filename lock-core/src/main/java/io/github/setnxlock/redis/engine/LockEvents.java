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

package io.github.setnxlock.redis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;

/**
 * Tells the registry's {@link LockListener}s what happened, each in turn, so that one
 * that fails neither stops the others nor the lock operation that found out.
 * <p>
 * What a caller's own lock call finds out is told on the caller's thread. What the
 * registry's renewal finds out goes through {@link #queued()}: one daemon thread of the
 * registry delivers it, in order, so that a listener that blocks (an alert sent over the
 * network, an {@code @EventListener} doing I/O) delays other events, never a renewal. Its
 * queue is bounded; an event that finds it full is dropped, and the first drop is logged.
 *
 * @author setnx-lock authors
 */
final class LockEvents implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockEvents.class);

	/** How many events may wait for the events thread before new ones are dropped. */
	static final int QUEUE_CAPACITY = 10_000;

	private static final long CLOSE_WAIT_MILLIS = 2000;

	private final List<LockListener> listeners;

	/**
	 * Delivers the events of {@link #queued()}, or {@code null} on the caller's thread.
	 */
	private final ThreadPoolExecutor delivery;

	/** Whether an event was dropped already (only the first drop is logged). */
	private final AtomicBoolean dropped = new AtomicBoolean();

	LockEvents(List<LockListener> listeners) {
		this(List.copyOf(listeners), null);
	}

	private LockEvents(List<LockListener> listeners, ThreadPoolExecutor delivery) {
		this.listeners = listeners;
		this.delivery = delivery;
	}

	/**
	 * Return events for the registry's own threads, told to the listeners on a thread of
	 * their own; {@link #close()} stops it.
	 * @return the queued events
	 */
	LockEvents queued() {
		ThreadPoolExecutor delivery = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY), (task) -> {
					Thread thread = new Thread(task, "setnx-lock-events");
					thread.setDaemon(true);
					return thread;
				}, (event, executor) -> {
					if (this.dropped.compareAndSet(false, true)) {
						logger.warn("Lock listeners are " + QUEUE_CAPACITY
								+ " events behind; events are dropped until they catch up");
					}
				});
		return new LockEvents(this.listeners, delivery);
	}

	void acquisitionEnded(LockListener.Acquisition acquisition) {
		if (logger.isDebugEnabled()) {
			logger.debug("Acquisition of lock " + quoted(acquisition.key(), acquisition.name()) + " ended "
					+ acquisition.result() + " after " + acquisition.waited()
					+ (acquisition.tookOver() ? ", taking over an expired claim" : ""));
		}
		if (acquisition.tookOver()) {
			logger.warn("Lock " + quoted(acquisition.key(), acquisition.name())
					+ " was taken over from a holder whose claim had expired");
		}
		each((listener) -> listener.acquisitionEnded(acquisition), acquisition);
	}

	void released(LockListener.Release release) {
		if (logger.isDebugEnabled()) {
			logger.debug("Lock " + quoted(release.key(), release.name()) + " released after " + release.held());
		}
		each((listener) -> listener.released(release), release);
	}

	void renewalEnded(LockListener.Renewal renewal) {
		each((listener) -> listener.renewalEnded(renewal), renewal);
	}

	void nodeFailed(LockListener.NodeFailure failure) {
		if (logger.isDebugEnabled()) {
			logger.debug("Redis node " + failure.node() + " failed a lock call: " + failure.cause());
		}
		each((listener) -> listener.nodeFailed(failure), failure);
	}

	private void each(Consumer<LockListener> call, Object event) {
		if (this.listeners.isEmpty()) {
			return;
		}
		if (this.delivery != null) {
			this.delivery.execute(() -> tell(call, event));
		}
		else {
			tell(call, event);
		}
	}

	private void tell(Consumer<LockListener> call, Object event) {
		for (LockListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener " + listener + " failed on " + event, ex);
			}
		}
	}

	/**
	 * Stop the events thread of {@link #queued()} events, after the events in its queue
	 * or a short wait, whichever comes first.
	 */
	@Override
	public void close() {
		if (this.delivery == null) {
			return;
		}
		this.delivery.shutdown();
		try {
			if (!this.delivery.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
				logger.warn("Lock listeners did not finish within " + CLOSE_WAIT_MILLIS + " ms of close; left behind");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Return how logs name a lock: by its name when it has one, else by its key. Keys of
	 * named locks are left out because they are often built from a call's arguments
	 * ({@code @DistributedLock} keys always are), which may be personal data.
	 * @param key the lock's key
	 * @param name the lock's name, empty when it has none
	 * @return the name or key, in quotes
	 */
	static String quoted(String key, String name) {
		return name.isEmpty() ? "'" + key + "'" : "'" + name + "'";
	}

	/**
	 * Tell of a hold found lost.
	 * @param hold the hold
	 * @param reason how it was lost
	 */
	void lost(Hold hold, LockLostEvent.Reason reason) {
		lockLost(
				new LockLostEvent(hold.key(), hold.name, reason, hold.ownerName(), hold.fencingToken(), Instant.now()));
	}

	/**
	 * Tell of a hold that ended.
	 * @param hold the hold
	 * @param lost whether it had been lost
	 */
	void ended(Hold hold, boolean lost) {
		released(new LockListener.Release(hold.key(), hold.name,
				Duration.ofNanos(System.nanoTime() - hold.acquiredNanos), lost));
	}

	void lockLost(LockLostEvent event) {
		logger.warn("Lock " + quoted(event.key(), event.name()) + " held by thread '" + event.holder() + "' was lost: "
				+ event.reason());
		each((listener) -> listener.lockLost(event), event);
	}

}
