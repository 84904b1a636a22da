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
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.protocol.OwnerTokens;

/**
 * Tells the registry's {@link LockListener}s what happened, each in turn, so that one
 * that fails neither stops the others nor the lock operation that found out.
 * <p>
 * What a caller's own lock call finds out is told on the caller's thread. What the
 * registry's renewal finds out goes through {@link #queued()}: one daemon thread of the
 * registry delivers it, in order, so that a listener that blocks (an alert sent over the
 * network, an {@code @EventListener} doing I/O) delays other events, never a renewal. Its
 * queue is bounded; an event that finds it full is dropped and counted, and each run of
 * drops is logged when it begins and when the listeners have caught up. A loss is never
 * dropped: it waits beside the queue and goes first when the events thread next looks, so
 * listeners hear of every loss once, whatever the load; there are never more losses
 * waiting than holds.
 *
 * @author setnx-lock authors
 */
final class LockEvents implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockEvents.class);

	/** How many events may wait for the events thread before new ones are dropped. */
	static final int QUEUE_CAPACITY = 10_000;

	private static final long CLOSE_WAIT_MILLIS = 2000;

	/** How long the read of who took a lost lock may take. */
	private static final long TAKER_WAIT_MILLIS = 1000;

	private final List<LockListener> listeners;

	/**
	 * Delivers the events of {@link #queued()}, or {@code null} on the caller's thread.
	 */
	private final ThreadPoolExecutor delivery;

	/** How many events were dropped since the listeners were last caught up. */
	private final AtomicLong dropped;

	/** Losses to tell before anything else: never dropped. */
	private final Queue<Runnable> losses;

	/** Reads the owner token a lock key holds now, to say who took a lost lock. */
	private final Function<LockKey, CompletableFuture<String>> currentOwner;

	LockEvents(List<LockListener> listeners, Function<LockKey, CompletableFuture<String>> currentOwner) {
		this(List.copyOf(listeners), null, null, currentOwner);
	}

	private LockEvents(List<LockListener> listeners, ThreadPoolExecutor delivery, AtomicLong dropped,
			Function<LockKey, CompletableFuture<String>> currentOwner) {
		this.listeners = listeners;
		this.delivery = delivery;
		this.dropped = dropped;
		this.losses = (delivery != null) ? new ConcurrentLinkedQueue<>() : null;
		this.currentOwner = currentOwner;
	}

	/**
	 * Return events for the registry's own threads, told to the listeners on a thread of
	 * their own; {@link #close()} stops it.
	 */
	LockEvents queued() {
		AtomicLong dropped = new AtomicLong();
		ThreadPoolExecutor delivery = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY), (task) -> {
					Thread thread = new Thread(task, "setnx-lock-events");
					thread.setDaemon(true);
					return thread;
				}, (event, executor) -> {
					if (executor.isShutdown()) {
						throw new RejectedExecutionException("Lock events are closed");
					}
					if (dropped.getAndIncrement() == 0) {
						logger.warn("Lock listeners are " + QUEUE_CAPACITY
								+ " events behind; events other than losses are dropped until they catch up");
					}
				});
		// An idle registry keeps no thread.
		delivery.allowCoreThreadTimeOut(true);
		return new LockEvents(this.listeners, delivery, dropped, this.currentOwner);
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
		if (this.delivery == null) {
			tell(call, event);
			return;
		}
		if (event instanceof LockLostEvent) {
			this.losses.add(() -> tell(call, event));
			// When the queue is full this is dropped, but then the events thread has
			// thousands of tasks to run, and the first tells the loss.
			deliver(this::tellLosses);
		}
		else {
			deliver(() -> {
				tellLosses();
				tell(call, event);
			});
		}
	}

	private void deliver(Runnable task) {
		try {
			this.delivery.execute(() -> {
				task.run();
				caughtUp();
			});
		}
		catch (RejectedExecutionException ex) {
			// Closed: listeners hear nothing more.
		}
	}

	private void tellLosses() {
		for (Runnable loss = this.losses.poll(); loss != null; loss = this.losses.poll()) {
			loss.run();
		}
	}

	/** Log the end of a run of dropped events, once the queue is empty again. */
	private void caughtUp() {
		if (this.dropped.get() > 0 && this.delivery.getQueue().isEmpty()) {
			long count = this.dropped.getAndSet(0);
			if (count > 0) {
				logger
					.warn("Lock listeners caught up; " + count + " events were dropped meanwhile (no loss among them)");
			}
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
	 */
	static String quoted(String key, String name) {
		return name.isEmpty() ? "'" + key + "'" : "'" + name + "'";
	}

	void lost(Hold hold, LockLostEvent.Reason reason) {
		LockLostEvent event = new LockLostEvent(hold.key(), hold.name, reason, hold.ownerName(), hold.fencingToken(),
				Instant.now());
		lockLost(event);
		if (reason == LockLostEvent.Reason.RENEWAL_REJECTED
				|| reason == LockLostEvent.Reason.RELEASE_FOUND_ANOTHER_OWNER) {
			tellTaker(hold.key, event);
		}
	}

	/**
	 * Log who holds a lock that was lost to another owner, once Redis says: after the
	 * loss itself, which no read may hold up. Nothing is logged when the holder is not
	 * named or Redis does not answer within a second.
	 */
	private void tellTaker(LockKey key, LockLostEvent event) {
		CompletableFuture<String> owner;
		try {
			owner = this.currentOwner.apply(key);
		}
		catch (RuntimeException ex) {
			return;
		}
		owner.orTimeout(TAKER_WAIT_MILLIS, TimeUnit.MILLISECONDS).whenComplete((token, failure) -> {
			String taker = (failure == null) ? OwnerTokens.holderOf(token) : null;
			if (taker != null) {
				logger.warn("Lock " + quoted(event.key(), event.name()) + " lost by thread '" + event.holder()
						+ "' is held by " + taker + " now");
			}
		});
	}

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
