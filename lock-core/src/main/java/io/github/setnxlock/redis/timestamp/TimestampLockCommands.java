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
package io.github.setnxlock.redis.timestamp;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.Replies;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.ScriptCall;
import io.github.setnxlock.redis.protocol.ScriptProtocol;

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

	/** {@code SETNX} with the expire-takeover and the fencing draw. */
	public static final LockScript ACQUIRE = LockScript.of(TimestampLockCommands.class, "acquire", true, READ, FENCE,
			"timestamp-clock.lua", "timestamp-acquire.lua");

	/** Compare-and-delete while our timestamp is valid. */
	public static final LockScript RELEASE = LockScript.of(TimestampLockCommands.class, "release", false, READ,
			"timestamp-clock.lua", "timestamp-release.lua");

	/** Compare-and-extend. */
	public static final LockScript KEEP = LockScript.of(TimestampLockCommands.class, "release", true, READ,
			"timestamp-clock.lua", "timestamp-keep.lua");

	/** Undo an acquisition whose answer never came. */
	public static final LockScript ABANDON = LockScript.of(TimestampLockCommands.class, "release", false, READ,
			"timestamp-abandon.lua");

	/** Whether a valid timestamp is held. */
	public static final LockScript HELD = LockScript.of(TimestampLockCommands.class, "read", true, READ,
			"timestamp-clock.lua", "timestamp-held.lua");

	/** The protocol's scripts, which a registry loads when it starts. */
	public static final List<LockScript> SCRIPTS = List.of(ACQUIRE, RELEASE, KEEP, ABANDON, HELD);

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
	protected ScriptCall<Attempt> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long leaseMillis = lease.toMillis();
		// Rounded up: a lease is a promise of at least that long.
		long leaseUnits = (leaseMillis + this.unitMillis - 1) / this.unitMillis;
		long sentNanos = System.nanoTime();
		return new ScriptCall<>(key, ACQUIRE, List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
				List.of(Long.toString(this.unitMillis), Long.toString(leaseUnits), callerClock(),
						Long.toString(KEY_GRACE.toMillis()), Long.toString(leaseMillis + this.fenceRetentionMillis),
						ownerToken),
				(answer) -> TimestampReplies.attempt(key, answer, sentNanos));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		long connections = this.gateway.connectionsOpened();
		return this.gateway
			.run(RELEASE, key, List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
					List.of(lease.value(), Long.toString(this.unitMillis), callerClock(),
							Long.toString(lease.fencingToken()), this.releaseChannel))
			.thenApply((answer) -> TimestampReplies.released(key, answer, () -> notOursSince(connections)));
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return this.gateway
			.run(ABANDON, key, List.of(key.redisKey(), key.ownerKey()), List.of(ownerToken, this.releaseChannel))
			.thenApply((answer) -> Replies.code(key, answer, 0, 1) == 1);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		long connections = this.gateway.connectionsOpened();
		return keepAnnounced(key, lease, keep)
			.thenApply((answer) -> TimestampReplies.releasedKeeping(key, answer, () -> notOursSince(connections)));
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
		return renewEach(KEEP, 3, calls,
				(i, answer, sentNanos) -> TimestampReplies.renewal(keys.get(i), leases.get(i), answer, sentNanos));
	}

	/**
	 * Shorten as a release that keeps the key does, which announces itself: waiters of
	 * this library's wait for a holder's timestamp, not a back-off.
	 */
	@Override
	public CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		long sentNanos = System.nanoTime();
		return keepAnnounced(key, lease, shorter)
			.thenApply((answer) -> TimestampReplies.renewal(key, lease, answer, sentNanos));
	}

	/**
	 * Keep the key for the given time while it is the lease's, announcing it: a release
	 * that keeps the key, and a shortened lease.
	 */
	private CompletableFuture<Object> keepAnnounced(LockKey key, Lease lease, Duration keep) {
		return this.gateway.run(KEEP, key, List.of(key.redisKey(), key.fenceKey(), key.ownerKey()),
				keepArguments(lease, keep, this.releaseChannel));
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
			.run(HELD, key, List.of(key.redisKey()), List.of(Long.toString(this.unitMillis), callerClock()))
			.thenApply((answer) -> TimestampReplies.held(key, answer));
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return this.gateway.read(key, true, true).thenApply(RedisGateway.KeyReading::ownerToken);
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
