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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.setnxlock.redis.engine.LocalHandoff.ReleaseSignal;
import io.github.setnxlock.redis.engine.Waits.SlotTurn;
import io.github.setnxlock.redis.engine.Waits.Ticker;
import io.github.setnxlock.redis.gateway.ReleaseListener;

/**
 * One key's state in this JVM: its {@link Slot} (one owner at a time acquires or holds
 * the key; the others of this JVM wait in line rather than asking Redis), its holds, and
 * its release messages.
 * <p>
 * The slot is free again when its owner unlocks, fails to acquire, or loses its hold (its
 * lease ends, or a renewal finds the key taken): a holder that never calls
 * {@code unlock()} does not block this JVM for longer than its lease.
 * <p>
 * The slot owner, while someone else holds the key in Redis, waits for the key's release
 * message ({@link ReleaseSignal}). The states of all keys are {@link KeyStates}'s, which
 * keep a key's only while some owner holds or waits for it.
 *
 * @author setnx-lock authors
 */
public final class KeyState {

	/**
	 * The release generation of a {@link SlotTurn} when the slot was not handed over
	 * after an announced release: there is no message to wait for.
	 */
	static final long NOT_ANNOUNCED = -1;

	/**
	 * The holds of this key by owner: the slot owner's, and those of owners whose hold
	 * was lost and who have not yet released it.
	 */
	private final Map<Object, Hold> holds = new ConcurrentHashMap<>();

	final Slot slot;

	/** The key's release messages. */
	final ReleaseSignal releases = new ReleaseSignal();

	/** Guarded by the map's compute. */
	int references;

	/**
	 * Create a key's state.
	 * @param unreachable why Redis counts as unreachable, or {@code null} while it does
	 * not: owners do not wait in the slot's line then (see {@link Slot})
	 * @param ticker the clock of the slot's deadlines
	 */
	KeyState(Supplier<Throwable> unreachable, Ticker ticker) {
		this.slot = new Slot(this.holds::get, unreachable, ticker);
	}

	/**
	 * Record the outcome of the slot owner's acquisition.
	 * @param owner the slot owner
	 * @param hold its new hold, or {@code null} when it did not acquire (the slot is
	 * freed)
	 */
	void acquired(Object owner, Hold hold) {
		if (hold != null) {
			this.holds.put(owner, hold);
			// Waiters that came while the owner was still acquiring wait without a
			// bound: let them bound their wait by the new hold's deadline.
			holdChanged();
		}
		else {
			this.slot.free(owner, NOT_ANNOUNCED);
		}
	}

	/**
	 * Drop an owner's hold, freeing the slot if the owner still owns it.
	 * @param owner the owner whose hold ends
	 * @param generationBeforeRelease the release generation noted before the release was
	 * sent, so that its message counts even if it arrived already; or
	 * {@link #NOT_ANNOUNCED} when the release was not announced
	 */
	void released(Object owner, long generationBeforeRelease) {
		this.holds.remove(owner);
		this.slot.free(owner, generationBeforeRelease);
	}

	/**
	 * Let the owners waiting for the slot look at its owner's hold again: it was taken,
	 * or lost.
	 */
	void holdChanged() {
		this.slot.ownerHoldChanged();
	}

	/** Return the holds of this key, a snapshot. */
	List<Hold> holds() {
		return List.copyOf(this.holds.values());
	}

	/** Return the given owner's hold, or {@code null}. */
	Hold holdOf(Object owner) {
		return this.holds.get(owner);
	}

	/**
	 * Return how many owners wait for a release message of this key: a test's handshake
	 * that a waiter is parked on Redis's answer, not still on its way there.
	 * @return the number of waiters
	 */
	public int releaseWaiters() {
		return this.releases.waiters();
	}

	/**
	 * Return how many owners wait for the key: in the slot's line, and the slot's owner
	 * while it is still acquiring.
	 * @return the number of waiting owners
	 */
	public int waiting() {
		return this.slot.waiting();
	}

	/**
	 * Return whether nobody holds the key or waits for it, though its state is kept.
	 * @return {@code true} when the state is idle
	 */
	public boolean isIdle() {
		return this.holds.isEmpty() && this.slot.waiting() == 0;
	}

	/**
	 * Return how many owners wait for the slot.
	 * @return the number of waiting owners
	 */
	public int slotWaiters() {
		return this.slot.waiters();
	}

	/**
	 * The states of the keys that some owner of this JVM holds or waits for, and where
	 * the release messages reach them (the subscription's {@link ReleaseListener}).
	 * <p>
	 * A state lives while some thread holds or waits for its key and is dropped when the
	 * last one leaves, so one-off keys do not accumulate. Reference counts change only
	 * inside the map's atomic {@code compute}, which makes "last one out removes it" and
	 * "newcomer finds it" exclusive.
	 */
	static final class KeyStates implements ReleaseListener {

		private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();

		/**
		 * Why Redis counts as unreachable, or {@code null}: the slots' lines do not wait
		 * then.
		 */
		private final Supplier<Throwable> unreachable;

		private final Ticker ticker;

		/**
		 * Create the states of keys whose lines always wait (no Redis behind them).
		 */
		KeyStates() {
			this(() -> null, Ticker.SYSTEM);
		}

		/**
		 * Create the states of keys.
		 * @param unreachable why Redis counts as unreachable, or {@code null} while it
		 * does not (see {@link Slot})
		 * @param ticker the clock of the slots' deadlines
		 */
		KeyStates(Supplier<Throwable> unreachable, Ticker ticker) {
			this.unreachable = unreachable;
			this.ticker = ticker;
		}

		/**
		 * Return the state of a key, created if needed, counting the caller as a user.
		 * @param redisKey the lock key in Redis
		 * @return the state; pair with {@link #unretain}
		 */
		KeyState retain(String redisKey) {
			return this.states.compute(redisKey, (key, existing) -> {
				KeyState state = (existing != null) ? existing : new KeyState(this.unreachable, this.ticker);
				state.references++;
				return state;
			});
		}

		/** Stop counting the caller as a user of the state {@link #retain} returned. */
		void unretain(String redisKey, KeyState state) {
			this.states.computeIfPresent(redisKey, (key, existing) -> {
				if (existing == state && --existing.references == 0) {
					return null;
				}
				return existing;
			});
		}

		/**
		 * Return the state of a key if some thread holds or waits for it, else
		 * {@code null}.
		 */
		KeyState find(String redisKey) {
			return this.states.get(redisKey);
		}

		int size() {
			return this.states.size();
		}

		/** Run an action for every key some thread holds or waits for. */
		void forEach(Consumer<KeyState> action) {
			this.states.values().forEach(action);
		}

		@Override
		public void released(String redisKey) {
			KeyState state = find(redisKey);
			if (state != null) {
				state.releases.announced();
			}
		}

		/**
		 * Redis became unreachable: the owners in every key's line stop waiting, and
		 * those that wait for a release message ask Redis again, so they meet the outage
		 * too.
		 */
		void redisUnreachable() {
			forEach((state) -> {
				state.slot.redisUnreachable();
				state.releases.announced();
			});
		}

		@Override
		public void mayHaveMissed() {
			forEach((state) -> state.releases.announced());
		}

	}

}
