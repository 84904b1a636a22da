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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@link LockProtocol#TOKEN token protocol}: the lock key holds a random owner token
 * and expires with the lease ({@code SET NX PX}), so an expired holder's key is simply
 * gone and the next {@code SET NX} wins without any client clock; release deletes the key
 * only while it still holds our token.
 *
 * @author setnx-lock authors
 */
final class TokenLockCommands implements LockCommands {

	private final StringRedisTemplate redis;

	private final ScriptCalls calls;

	private final long fenceRetentionMillis;

	private final String releaseChannel;

	TokenLockCommands(StringRedisTemplate redis, ScriptCalls calls, Duration fenceRetention, String releaseChannel) {
		this.redis = redis;
		this.calls = calls;
		this.releaseChannel = releaseChannel;
		this.fenceRetentionMillis = fenceRetention.toMillis();
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long leaseMillis = lease.toMillis();
		long sentNanos = System.nanoTime();
		return this.calls
			.run(key, "acquire", LockScripts.TOKEN_ACQUIRE, List.of(key.redisKey(), key.fenceKey()),
					List.of(ownerToken, Long.toString(leaseMillis),
							Long.toString(leaseMillis + this.fenceRetentionMillis), waits ? "1" : "0"))
			.thenApply((answer) -> attempt(key, RedisCall.list(key, answer), ownerToken, sentNanos, leaseMillis));
	}

	private static Attempt attempt(LockKey key, List<?> reply, String ownerToken, long sentNanos, long leaseMillis) {
		long status = RedisCall.longAt(key, reply, 0);
		if (status == 1) {
			return Attempt.acquired(new Lease(ownerToken, RedisCall.longAt(key, reply, 1), sentNanos, leaseMillis));
		}
		if (status == 0) {
			return Attempt.held(RedisCall.longAt(key, reply, 1), RedisCall.longAt(key, reply, 2) == 1);
		}
		if (status == -2) {
			throw RedisCall.notFenceCounter(key, RedisCall.stringAt(key, reply, 1));
		}
		throw RedisCall.wrongType(key, RedisCall.stringAt(key, reply, 1));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.calls.releaseToken(key, lease.value(), this.releaseChannel)
			.thenApply(TokenLockCommands::releaseResult);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.calls
			.run(key, "release", LockScripts.TOKEN_KEEP, List.of(key.redisKey()),
					List.of(lease.value(), Long.toString(keep.toMillis()), this.releaseChannel))
			.thenApply(TokenLockCommands::releaseResult);
	}

	private static ReleaseResult releaseResult(Object answer) {
		if (Long.valueOf(2).equals(answer)) {
			return ReleaseResult.RELEASED_AND_ANNOUNCED;
		}
		return Long.valueOf(1).equals(answer) ? ReleaseResult.RELEASED : ReleaseResult.NOT_OURS;
	}

	@Override
	public List<RenewalResult> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		String leaseMillis = Long.toString(lease.toMillis());
		List<List<String>> calls = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			calls.add(List.of(keys.get(i).redisKey(), leases.get(i).value(), leaseMillis));
		}
		long sentNanos = System.nanoTime();
		List<Object> answers = ScriptPipeline.run(this.redis, LockScripts.TOKEN_KEEP, ReturnType.INTEGER, 1, calls);
		List<RenewalResult> results = new ArrayList<>(answers.size());
		for (int i = 0; i < answers.size(); i++) {
			Object answer = answers.get(i);
			Lease current = leases.get(i);
			if (Long.valueOf(1).equals(answer)) {
				results.add(RenewalResult
					.renewed(new Lease(current.value(), current.fencingToken(), sentNanos, lease.toMillis())));
			}
			else {
				results.add(RenewalResult.rejected(ReleaseResult.NOT_OURS));
			}
		}
		return results;
	}

	@Override
	public boolean isLocked(LockKey key) {
		return Boolean.TRUE.equals(RedisCall.run(key, "read", () -> this.redis.hasKey(key.redisKey())));
	}

}
