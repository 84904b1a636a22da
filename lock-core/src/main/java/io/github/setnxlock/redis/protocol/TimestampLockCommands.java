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
package io.github.setnxlock.redis.protocol;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScripts;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.TimestampAbandonReply;
import io.github.setnxlock.redis.gateway.TimestampAcquireReply;
import io.github.setnxlock.redis.gateway.TimestampHeldReply;
import io.github.setnxlock.redis.gateway.TimestampKeepReply;

/**
 * The timestamp protocol of the Redis {@code SETNX} documentation: the lock key holds the
 * Unix time, in whole units (seconds or milliseconds), at which the lock stops being
 * valid ({@code now + lease + 1}).
 * <p>
 * Acquire is {@code SETNX}; a key whose timestamp has passed is taken over in the same
 * script, which is the documented {@code GETSET} whose old value is still expired, done
 * as a compare-and-set so a losing contender never rewrites the winner's expiry. Release
 * deletes the key only while our timestamp has not passed and the key was not taken over.
 * "Now" is the Redis server's clock, or the local clock under a local clock. Keys also
 * get a Redis TTL {@link #KEY_GRACE} past their expiry so that an abandoned key does not
 * stay forever. Internal API.
 *
 * @author setnx-lock authors
 */
public final class TimestampLockCommands extends ScriptProtocol {

	/**
	 * How long a key outlives its timestamp. Longer than any sane clock difference
	 * between clients of the documented pattern, who judge expiry by the value, not the
	 * TTL.
	 */
	static final Duration KEY_GRACE = Duration.ofSeconds(10);

	private final long fenceRetentionMillis;

	private final long unitMillis;

	private final Clock localClock;

	private final String releaseChannel;

	/**
	 * Create the protocol.
	 * @param gateway the way into Redis
	 * @param fenceRetention how long a fencing counter outlives a lease
	 * @param unit the timestamps' unit: a second or a millisecond
	 * @param localClock the clock "now" is read from, or {@code null} for the Redis
	 * server's clock
	 * @param releaseChannel the channel releases are announced on
	 */
	public TimestampLockCommands(RedisGateway gateway, Duration fenceRetention, Duration unit, Clock localClock,
			String releaseChannel) {
		super(gateway);
		this.fenceRetentionMillis = fenceRetention.toMillis();
		this.unitMillis = unit.toMillis();
		this.localClock = localClock;
		this.releaseChannel = releaseChannel;
	}

	@Override
	ScriptCall<TimestampAcquireReply, Attempt> acquireCall(LockKey key, String ownerToken, Duration lease,
			boolean waits) {
		long leaseMillis = lease.toMillis();
		// Rounded up: a lease is a promise of at least that long.
		long leaseUnits = (leaseMillis + this.unitMillis - 1) / this.unitMillis;
		long sentNanos = System.nanoTime();
		return new ScriptCall<>(key, LockScripts.TIMESTAMP_ACQUIRE,
				List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
				List.of(Long.toString(this.unitMillis), Long.toString(leaseUnits), callerClock(),
						Long.toString(KEY_GRACE.toMillis()), Long.toString(leaseMillis + this.fenceRetentionMillis),
						ownerToken),
				(reply) -> attempt(reply, sentNanos));
	}

	private static Attempt attempt(TimestampAcquireReply reply, long sentNanos) {
		if (reply instanceof TimestampAcquireReply.Acquired acquired) {
			Lease lease = new Lease(acquired.value(), acquired.fencingToken(), sentNanos, acquired.validityMillis());
			return (acquired.previousValue() == null) ? Attempt.acquired(lease)
					: Attempt.tookOver(lease, acquired.previousValue());
		}
		// A registry's holder announces its release; a client of the documented pattern
		// never does.
		TimestampAcquireReply.Held held = (TimestampAcquireReply.Held) reply;
		return Attempt.held(held.holderTtlMillis(), held.announces());
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.gateway
			.run(LockScripts.TIMESTAMP_RELEASE, key, List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
					List.of(lease.value(), Long.toString(this.unitMillis), callerClock(),
							Long.toString(lease.fencingToken()), this.releaseChannel))
			// Every timestamp release that deletes is announced: waiters do not mark a
			// timestamp, which other clients must be able to read.
			.thenApply((reply) -> switch (reply) {
				case DELETED, DELETED_AFTER_REWRITE -> ReleaseResult.RELEASED_AND_ANNOUNCED;
				case NOT_OURS -> ReleaseResult.NOT_OURS;
				case EXPIRED -> ReleaseResult.EXPIRED;
			});
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return this.gateway
			.run(LockScripts.TIMESTAMP_ABANDON, key, List.of(key.redisKey(), key.ownerKey()),
					List.of(ownerToken, this.releaseChannel))
			.thenApply((reply) -> reply == TimestampAbandonReply.DELETED);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.gateway
			.run(LockScripts.TIMESTAMP_KEEP, key, List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
					keepArguments(lease, keep, this.releaseChannel))
			.thenApply(TimestampLockCommands::releaseResult);
	}

	private static ReleaseResult releaseResult(TimestampKeepReply reply) {
		if (reply instanceof TimestampKeepReply.Extended extended) {
			return extended.announced() ? ReleaseResult.RELEASED_AND_ANNOUNCED : ReleaseResult.RELEASED;
		}
		return ((TimestampKeepReply.NotExtended) reply).expired() ? ReleaseResult.EXPIRED : ReleaseResult.NOT_OURS;
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		List<List<String>> calls = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			List<String> call = new ArrayList<>(
					List.of(keys.get(i).redisKey(), keys.get(i).fenceKey(), keys.get(i).ownerKey()));
			call.addAll(keepArguments(leases.get(i), lease, null));
			calls.add(call);
		}
		long sentNanos = System.nanoTime();
		return this.gateway.runBatch(LockScripts.TIMESTAMP_KEEP, keys, 3, calls).thenApply((replies) -> {
			List<RenewalResult> results = new ArrayList<>(replies.size());
			for (int i = 0; i < replies.size(); i++) {
				RedisGateway.Replied<TimestampKeepReply> replied = replies.get(i);
				if (replied.failure() != null) {
					results.add(RenewalResult.failed(replied.failure()));
				}
				else if (replied.reply() instanceof TimestampKeepReply.Extended extended) {
					results.add(RenewalResult.renewed(new Lease(extended.value(), leases.get(i).fencingToken(),
							sentNanos, extended.validityMillis())));
				}
				else {
					results.add(RenewalResult.rejected(releaseResult(replied.reply())));
				}
			}
			return results;
		});
	}

	/**
	 * The arguments of {@code timestamp-keep.lua}; a channel only for a release that
	 * keeps the key, which announces itself.
	 */
	private List<String> keepArguments(Lease lease, Duration keep, String channel) {
		List<String> args = new ArrayList<>(List.of(lease.value(), Long.toString(this.unitMillis), callerClock(),
				Long.toString(keep.toMillis()), Long.toString(KEY_GRACE.toMillis()),
				Long.toString(lease.fencingToken()), Long.toString(this.fenceRetentionMillis)));
		if (channel != null) {
			args.add(channel);
		}
		return args;
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.gateway
			.run(LockScripts.TIMESTAMP_HELD, key, List.of(key.redisKey()),
					List.of(Long.toString(this.unitMillis), callerClock()))
			.thenApply((reply) -> reply == TimestampHeldReply.HELD);
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return CompletableFuture.completedFuture(Attempt.LEFT_FREE);
	}

	@Override
	public boolean marksWaiters() {
		return false;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		return CompletableFuture.completedFuture(false);
	}

	@Override
	public boolean reChecksQuickly() {
		return true;
	}

	private String callerClock() {
		return (this.localClock != null) ? Long.toString(this.localClock.millis()) : "";
	}

}
