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
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

import io.github.setnxlock.annotation.DistributedLock;

/**
 * Account balances kept in Redis and updated the way much real code does it: read the
 * value, compute, write it back. Two of those running at once for one account lose an
 * update, whichever instance of the application they run in.
 * <p>
 * {@link #deposit} shows the declarative fix: {@code @DistributedLock} with a SpEL key,
 * so deposits to one account take turns while deposits to different accounts run side by
 * side; {@link #depositReactively} is the same under the same lock for a reactive caller.
 * {@link #depositUnsafe} is the same code without the lock, there to show what the lock
 * prevents. (A real ledger would use {@code INCRBY} here; the read-modify-write stands in
 * for work that cannot be made atomic in Redis, such as a call to another system between
 * the read and the write.)
 *
 * @author setnx-lock authors
 */
@Service
public class AccountService {

	private static final String KEY_PREFIX = "sample:account:";

	// Long enough that unguarded deposits running at the same time overlap and lose
	// updates; short enough that guarded ones taking turns stay quick.
	private static final Duration THINK_TIME = Duration.ofMillis(3);

	private final StringRedisTemplate redis;

	AccountService(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Add to an account's balance under the account's lock,
	 * {@code AccountService.deposit:<accountId>}.
	 * @param accountId the account
	 * @param amount a positive amount
	 * @return the balance after the deposit
	 */
	@DistributedLock(key = "#accountId")
	public Balance deposit(String accountId, long amount) {
		return add(accountId, amount);
	}

	/**
	 * Add to an account's balance under the same lock as {@link #deposit}, from a
	 * reactive caller: the lock is taken when the result is subscribed, without a thread
	 * waiting for it, and released when the deposit is done. The read-modify-write is
	 * blocking code, so it runs on Reactor's scheduler for such work.
	 * @param accountId the account
	 * @param amount a positive amount
	 * @return the balance after the deposit, once subscribed
	 */
	@DistributedLock(name = "AccountService.deposit", key = "#accountId")
	public Mono<Balance> depositReactively(String accountId, long amount) {
		return Mono.fromCallable(() -> add(accountId, amount)).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Add to an account's balance without a lock: concurrent calls for one account lose
	 * updates.
	 * @param accountId the account
	 * @param amount a positive amount
	 * @return the balance this call wrote, which a concurrent call may overwrite
	 */
	public Balance depositUnsafe(String accountId, long amount) {
		return add(accountId, amount);
	}

	/**
	 * Return an account's balance; an account nobody paid into has zero.
	 * @param accountId the account
	 * @return the balance
	 */
	public Balance balance(String accountId) {
		return new Balance(accountId, parse(this.redis.opsForValue().get(KEY_PREFIX + accountId)));
	}

	/**
	 * Return how many accounts there are and what they hold together.
	 * @return the totals
	 */
	public Totals totals() {
		List<String> keys = new ArrayList<>();
		try (Cursor<String> cursor = this.redis.scan(ScanOptions.scanOptions().match(KEY_PREFIX + "*").build())) {
			cursor.forEachRemaining(keys::add);
		}
		long total = 0;
		if (!keys.isEmpty()) {
			for (String value : this.redis.opsForValue().multiGet(keys)) {
				total += parse(value);
			}
		}
		return new Totals(keys.size(), total);
	}

	private Balance add(String accountId, long amount) {
		if (amount <= 0) {
			throw new IllegalArgumentException("amount must be positive, but was " + amount);
		}
		String key = KEY_PREFIX + accountId;
		long balance = parse(this.redis.opsForValue().get(key));
		pause();
		long updated = Math.addExact(balance, amount);
		this.redis.opsForValue().set(key, Long.toString(updated));
		return new Balance(accountId, updated);
	}

	private static long parse(String value) {
		return (value != null) ? Long.parseLong(value) : 0;
	}

	private static void pause() {
		try {
			Thread.sleep(THINK_TIME.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during a deposit", ex);
		}
	}

	/**
	 * An account's balance.
	 *
	 * @param accountId the account
	 * @param balance the balance
	 */
	public record Balance(String accountId, long balance) {

	}

	/**
	 * What all accounts hold together.
	 *
	 * @param accounts how many accounts have a balance
	 * @param totalBalance the sum of their balances
	 */
	public record Totals(long accounts, long totalBalance) {

	}

}
