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

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.setnxlock.redis.gateway.ReleaseListener;

/**
 * The JVM's state per lock key: a slot that settles contention between threads of this
 * JVM before any of them goes to Redis, and the threads' holds.
 * <p>
 * A state lives while some thread holds or waits for its key and is dropped when the last
 * one leaves, so one-off keys do not accumulate. Reference counts change only inside the
 * map's atomic {@code compute}, which makes "last one out removes it" and "newcomer finds
 * it" exclusive.
 *
 * @author setnx-lock authors
 */
final class KeyStates implements ReleaseListener {

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
	 * @param unreachable why Redis counts as unreachable, or {@code null} while it does
	 * not (see {@link Slot})
	 * @param ticker the clock of the slots' deadlines
	 */
	KeyStates(Supplier<Throwable> unreachable, Ticker ticker) {
		this.unreachable = unreachable;
		this.ticker = ticker;
	}

	/**
	 * Return the state of a key, created if needed, counting the caller as a user.
	 * @param redisKey the lock key in Redis
	 * @return the state; pair with {@link #release}
	 */
	KeyState retain(String redisKey) {
		return this.states.compute(redisKey, (key, existing) -> {
			KeyState state = (existing != null) ? existing : new KeyState(this.unreachable, this.ticker);
			state.references++;
			return state;
		});
	}

	/**
	 * Stop counting the caller as a user of a key's state.
	 * @param redisKey the lock key in Redis
	 * @param state the state {@link #retain} returned
	 */
	void unretain(String redisKey, KeyState state) {
		this.states.computeIfPresent(redisKey, (key, existing) -> {
			if (existing == state && --existing.references == 0) {
				return null;
			}
			return existing;
		});
	}

	/**
	 * Return the state of a key if some thread holds or waits for it.
	 * @param redisKey the lock key in Redis
	 * @return the state, or {@code null}
	 */
	KeyState find(String redisKey) {
		return this.states.get(redisKey);
	}

	int size() {
		return this.states.size();
	}

	/**
	 * Run an action for every key some thread holds or waits for.
	 * @param action the action
	 */
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
	 * Redis became unreachable: the owners in every key's line stop waiting, and those
	 * that wait for a release message ask Redis again, so they meet the outage too.
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
