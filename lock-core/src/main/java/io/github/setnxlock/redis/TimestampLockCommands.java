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

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@link LockProtocol#TIMESTAMP timestamp protocol} of the Redis {@code SETNX}
 * documentation: the lock key holds the Unix time, in whole {@link TimestampUnit units},
 * at which the lock stops being valid ({@code now + lease + 1}).
 * <p>
 * Acquire is {@code SETNX}; a key whose timestamp has passed is taken over in the same
 * script, which is the documented {@code GETSET} whose old value is still expired, done
 * as a compare-and-set so a losing contender never rewrites the winner's expiry. Release
 * deletes the key only while our timestamp has not passed and the key was not taken over.
 * "Now" is the Redis server's clock, or the local clock under
 * {@link TimestampClock#LOCAL}. Keys also get a Redis TTL {@link #KEY_GRACE} past their
 * expiry so that an abandoned key does not stay forever.
 *
 * @author setnx-lock authors
 */
final class TimestampLockCommands implements LockCommands {

	/**
	 * How long a key outlives its timestamp. Longer than any sane clock difference
	 * between clients of the documented pattern, who judge expiry by the value, not the
	 * TTL.
	 */
	static final Duration KEY_GRACE = Duration.ofSeconds(10);

	private final StringRedisTemplate redis;

	private final ScriptCalls calls;

	private final long fenceRetentionMillis;

	private final long unitMillis;

	private final Clock localClock;

	private final String releaseChannel;

	TimestampLockCommands(StringRedisTemplate redis, ScriptCalls calls, Duration fenceRetention,
			SetnxLockSettings settings) {
		this.redis = redis;
		this.calls = calls;
		this.fenceRetentionMillis = fenceRetention.toMillis();
		this.unitMillis = settings.timestampUnit().toMillis();
		this.localClock = (settings.timestampClock() == TimestampClock.LOCAL) ? settings.localClock() : null;
		this.releaseChannel = settings.releaseChannel();
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long leaseMillis = lease.toMillis();
		// Rounded up: a lease is a promise of at least that long.
		long leaseUnits = (leaseMillis + this.unitMillis - 1) / this.unitMillis;
		long sentNanos = System.nanoTime();
		return this.calls.run(key, "acquire", LockScripts.TIMESTAMP_ACQUIRE, List.of(key.redisKey(), key.fenceKey()),
				List.of(Long.toString(this.unitMillis), Long.toString(leaseUnits), callerClock(),
						Long.toString(KEY_GRACE.toMillis()), Long.toString(leaseMillis + this.fenceRetentionMillis)))
			.thenApply((answer) -> attempt(key, RedisCall.list(key, answer), sentNanos));
	}

	private static Attempt attempt(LockKey key, List<?> reply, long sentNanos) {
		long status = RedisCall.longAt(key, reply, 0);
		if (status == 1 || status == 2) {
			Lease acquired = new Lease(RedisCall.stringAt(key, reply, 2), RedisCall.longAt(key, reply, 1), sentNanos,
					RedisCall.longAt(key, reply, 3));
			return (status == 1) ? Attempt.acquired(acquired)
					: Attempt.tookOver(acquired, RedisCall.stringAt(key, reply, 4));
		}
		if (status == 0) {
			// Whether the holder announces is not known: a client of the documented
			// pattern never does.
			return Attempt.held(RedisCall.longAt(key, reply, 1), false);
		}
		if (status == -1) {
			throw RedisCall.wrongType(key, RedisCall.stringAt(key, reply, 1));
		}
		if (status == -3) {
			throw RedisCall.notFenceCounter(key, RedisCall.stringAt(key, reply, 1));
		}
		throw RedisCall.notTimestamp(key, RedisCall.stringAt(key, reply, 1));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.calls.run(key, "release", LockScripts.TIMESTAMP_RELEASE, List.of(key.redisKey(), key.fenceKey()),
				List.of(lease.value(), Long.toString(this.unitMillis), callerClock(),
						Long.toString(lease.fencingToken()), this.releaseChannel))
			.thenApply((answer) -> {
				// Every timestamp release that deletes is announced: waiters do not mark
				// a timestamp, which other clients must be able to read.
				ReleaseResult result = releaseResult(key, answer);
				return result.released() ? ReleaseResult.RELEASED_AND_ANNOUNCED : result;
			});
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.calls.run(key, "release", LockScripts.TIMESTAMP_KEEP, List.of(key.redisKey(), key.fenceKey()),
				List.of(lease.value(), Long.toString(this.unitMillis), callerClock(), Long.toString(keep.toMillis()),
						Long.toString(KEY_GRACE.toMillis()), Long.toString(lease.fencingToken()),
						Long.toString(this.fenceRetentionMillis), this.releaseChannel))
			.thenApply((answer) -> {
				long status = RedisCall.longAt(key, RedisCall.list(key, answer), 0);
				return (status == 2) ? ReleaseResult.RELEASED_AND_ANNOUNCED : releaseResult(status);
			});
	}

	@Override
	public List<RenewalResult> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		String unit = Long.toString(this.unitMillis);
		String clock = callerClock();
		String keep = Long.toString(lease.toMillis());
		String grace = Long.toString(KEY_GRACE.toMillis());
		List<List<String>> calls = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			calls.add(List.of(keys.get(i).redisKey(), keys.get(i).fenceKey(), leases.get(i).value(), unit, clock, keep,
					grace, Long.toString(leases.get(i).fencingToken()), Long.toString(this.fenceRetentionMillis)));
		}
		long sentNanos = System.nanoTime();
		List<Object> answers = ScriptPipeline.run(this.redis, LockScripts.TIMESTAMP_KEEP, ReturnType.MULTI, 2, calls);
		List<RenewalResult> results = new ArrayList<>(answers.size());
		for (int i = 0; i < answers.size(); i++) {
			Object answer = answers.get(i);
			Lease current = leases.get(i);
			LockKey key = keys.get(i);
			try {
				List<?> reply = RedisCall.list(key, answer);
				long status = RedisCall.longAt(key, reply, 0);
				results.add((status == 1)
						? RenewalResult.renewed(new Lease(RedisCall.stringAt(key, reply, 1), current.fencingToken(),
								sentNanos, RedisCall.longAt(key, reply, 2)))
						: RenewalResult.rejected(releaseResult(status)));
			}
			catch (RuntimeException ex) {
				results.add(RenewalResult.failed(ex));
			}
		}
		return results;
	}

	private static ReleaseResult releaseResult(LockKey key, Object answer) {
		if (answer != null && !(answer instanceof Long)) {
			throw RedisCall.unexpected(key, answer);
		}
		return releaseResult((Long) answer);
	}

	private static ReleaseResult releaseResult(Long result) {
		if (result == null || result == 0) {
			return ReleaseResult.NOT_OURS;
		}
		return (result < 0) ? ReleaseResult.EXPIRED : ReleaseResult.RELEASED;
	}

	@Override
	public boolean isLocked(LockKey key) {
		List<?> reply = RedisCall.list(key,
				RedisCall.run(key, "read", () -> this.redis.execute(LockScripts.TIMESTAMP_HELD, List.of(key.redisKey()),
						Long.toString(this.unitMillis), callerClock())));
		long status = RedisCall.longAt(key, reply, 0);
		if (status == -1) {
			throw RedisCall.wrongType(key, RedisCall.stringAt(key, reply, 1));
		}
		if (status == -2) {
			throw RedisCall.notTimestamp(key, RedisCall.stringAt(key, reply, 1));
		}
		return status == 1;
	}

	private String callerClock() {
		return (this.localClock != null) ? Long.toString(this.localClock.millis()) : "";
	}

}
