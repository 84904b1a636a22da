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

	private final long fenceRetentionMillis;

	private final String releaseChannel;

	TokenLockCommands(StringRedisTemplate redis, Duration fenceRetention, String releaseChannel) {
		this.redis = redis;
		this.releaseChannel = releaseChannel;
		this.fenceRetentionMillis = fenceRetention.toMillis();
	}

	@Override
	public Attempt acquire(LockKey key, String ownerToken, Duration lease) {
		long leaseMillis = lease.toMillis();
		long sentNanos = System.nanoTime();
		List<?> reply = RedisCall.list(key,
				RedisCall.run(key, "acquire",
						() -> this.redis.execute(LockScripts.TOKEN_ACQUIRE, List.of(key.redisKey(), key.fenceKey()),
								ownerToken, Long.toString(leaseMillis),
								Long.toString(leaseMillis + this.fenceRetentionMillis))));
		long status = RedisCall.longAt(key, reply, 0);
		if (status == 1) {
			return Attempt.acquired(new Lease(ownerToken, RedisCall.longAt(key, reply, 1), sentNanos, leaseMillis));
		}
		if (status == 0) {
			return Attempt.held(RedisCall.longAt(key, reply, 1));
		}
		if (status == -2) {
			throw RedisCall.notFenceCounter(key, RedisCall.stringAt(key, reply, 1));
		}
		throw RedisCall.wrongType(key, RedisCall.stringAt(key, reply, 1));
	}

	@Override
	public ReleaseResult release(LockKey key, Lease lease) {
		Long deleted = RedisCall.run(key, "release", () -> this.redis.execute(LockScripts.TOKEN_RELEASE,
				List.of(key.redisKey()), lease.value(), this.releaseChannel));
		return (deleted != null && deleted == 1) ? ReleaseResult.RELEASED : ReleaseResult.NOT_OURS;
	}

	@Override
	public ReleaseResult releaseKeeping(LockKey key, Lease lease, Duration keep) {
		Long kept = RedisCall.run(key, "release", () -> this.redis.execute(LockScripts.TOKEN_KEEP,
				List.of(key.redisKey()), lease.value(), Long.toString(keep.toMillis())));
		return (kept != null && kept == 1) ? ReleaseResult.RELEASED : ReleaseResult.NOT_OURS;
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
