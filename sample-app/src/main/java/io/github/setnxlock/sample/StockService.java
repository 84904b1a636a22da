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

package io.github.setnxlock.sample;

import java.time.Duration;
import java.util.function.LongFunction;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Service;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.reactor.ReactiveLocks;

/**
 * Stock reservations, guarded by a lock taken by hand from the {@link LockRegistry}: the
 * way to go when the lock's key or wait is decided at run time, when one method needs
 * more than one lock, or when "busy" is an answer rather than an exception.
 * <p>
 * Each change reads the level, decides, and writes the new level through
 * {@link StockLedger}, passing the lock's fencing token so the ledger refuses the write
 * of a holder whose lease ended without its knowing.
 *
 * @author setnx-lock authors
 */
@Service
public class StockService {

	// Reservations are quick; a caller that still waits after this is better told "busy"
	// than kept hanging.
	private static final Duration WAIT = Duration.ofSeconds(2);

	private final LockRegistry locks;

	private final StockLedger ledger;

	StockService(LockRegistry locks, StockLedger ledger) {
		this.locks = locks;
		this.ledger = ledger;
	}

	/**
	 * Take a quantity out of stock if that much is there.
	 * @param sku the SKU
	 * @param quantity a positive quantity
	 * @return what happened, and the level afterwards
	 */
	public StockChange reserve(String sku, long quantity) {
		checkPositive(quantity);
		return underLock(sku, (fencingToken) -> reserveUnder(sku, quantity, fencingToken));
	}

	private StockChange reserveUnder(String sku, long quantity, long fencingToken) {
		long available = this.ledger.level(sku).quantity();
		if (available < quantity) {
			return new StockChange(sku, Outcome.INSUFFICIENT, available, fencingToken);
		}
		return write(sku, available - quantity, fencingToken, Outcome.RESERVED);
	}

	/**
	 * Take a quantity out of stock if that much is there, for a reactive caller: the same
	 * lock and the same fencing as {@link #reserve}, taken through {@link ReactiveLocks}
	 * when the result is subscribed, with no thread waiting for the lock. The ledger's
	 * calls block, so they run on Reactor's scheduler for such work.
	 * @param sku the SKU
	 * @param quantity a positive quantity
	 * @return what happened, and the level afterwards, once subscribed
	 */
	public Mono<StockChange> reserveReactively(String sku, long quantity) {
		checkPositive(quantity);
		return ReactiveLocks
			.withLock(this.locks.obtain("stock:" + sku), WAIT,
					(held) -> Mono.fromFuture(held::fencingTokenAsync)
						.publishOn(Schedulers.boundedElastic())
						.map((fencingToken) -> reserveUnder(sku, quantity, fencingToken)))
			.singleOrEmpty()
			.onErrorResume(LockNotAcquiredException.class,
					(busy) -> Mono.just(new StockChange(sku, Outcome.BUSY, null, null)));
	}

	/**
	 * Set a SKU's stock level.
	 * @param sku the SKU
	 * @param quantity the new level, zero or more
	 * @return what happened, and the level afterwards
	 */
	public StockChange restock(String sku, long quantity) {
		if (quantity < 0) {
			throw new IllegalArgumentException("quantity must not be negative, but was " + quantity);
		}
		return underLock(sku, (fencingToken) -> write(sku, quantity, fencingToken, Outcome.RESTOCKED));
	}

	private StockChange write(String sku, long quantity, long fencingToken, Outcome outcome) {
		if (!this.ledger.write(sku, quantity, fencingToken)) {
			return new StockChange(sku, Outcome.STALE, this.ledger.level(sku).quantity(), fencingToken);
		}
		return new StockChange(sku, outcome, quantity, fencingToken);
	}

	private StockChange underLock(String sku, LongFunction<StockChange> work) {
		LeasedLock lock = this.locks.obtain("stock:" + sku);
		try {
			// unlock() afterwards throws LockLostException if the lease ended first: the
			// change may have raced with another holder, and the caller must hear it.
			return this.locks.executeLocked(lock.key(), WAIT, () -> work.apply(lock.fencingToken()));
		}
		catch (LockNotAcquiredException busy) {
			return new StockChange(sku, Outcome.BUSY, null, null);
		}
	}

	private static void checkPositive(long quantity) {
		if (quantity <= 0) {
			throw new IllegalArgumentException("quantity must be positive, but was " + quantity);
		}
	}

	/**
	 * What a stock change did.
	 */
	public enum Outcome {

		/**
		 * The quantity was taken out of stock.
		 */
		RESERVED,

		/**
		 * The level was set.
		 */
		RESTOCKED,

		/**
		 * Less than the quantity asked for is in stock; nothing changed.
		 */
		INSUFFICIENT,

		/**
		 * Another caller held the SKU's lock for the whole wait; nothing changed.
		 */
		BUSY,

		/**
		 * The ledger refused the write: a newer lock holder had written already.
		 */
		STALE

	}

	/**
	 * What a stock change did.
	 *
	 * @param sku the SKU
	 * @param outcome what happened
	 * @param quantity the level afterwards, or {@code null} when the SKU was busy
	 * @param fencingToken the token of the lock this change held, or {@code null} when it
	 * held none
	 */
	public record StockChange(String sku, Outcome outcome, Long quantity, Long fencingToken) {

	}

}
