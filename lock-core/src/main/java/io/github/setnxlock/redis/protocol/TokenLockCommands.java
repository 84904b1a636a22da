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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScripts;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.TokenAcquireReply;
import io.github.setnxlock.redis.gateway.TokenFenceReply;
import io.github.setnxlock.redis.gateway.TokenKeepReply;
import io.github.setnxlock.redis.gateway.TokenReleaseReply;

/**
 * The token protocol: the lock key holds a random owner token and expires with the lease
 * ({@code SET NX PX}), so an expired holder's key is simply gone and the next
 * {@code SET NX} wins without any client clock; release deletes the key only while it
 * still holds our token. The fencing token is drawn when the holder first asks for it
 * ({@code token-fence.lua}), so that an acquisition is one plain command. Internal API.
 *
 * @author setnx-lock authors
 */
public final class TokenLockCommands extends ScriptProtocol {

	private final long fenceRetentionMillis;

	private final String releaseChannel;

	/**
	 * Create the protocol.
	 * @param gateway the way into Redis
	 * @param fenceRetention how long a fencing counter outlives a lease
	 * @param releaseChannel the channel releases are announced on
	 */
	public TokenLockCommands(RedisGateway gateway, Duration fenceRetention, String releaseChannel) {
		super(gateway);
		this.releaseChannel = releaseChannel;
		this.fenceRetentionMillis = fenceRetention.toMillis();
	}

	/**
	 * Acquire with a plain {@code SET key token NX PX lease}; only when that finds the
	 * key taken does the script follow, which takes the key if it has become free since,
	 * or marks the holder for a waiter, or reports a key of another type (so that
	 * {@code tryLock()} on such a key is an error, not {@code false}).
	 */
	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long sentNanos = System.nanoTime();
		long leaseMillis = lease.toMillis();
		return this.gateway.setIfAbsent(key, ownerToken, leaseMillis)
			.thenCompose((set) -> set
					? CompletableFuture.completedFuture(
							Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, leaseMillis)))
					: acquireCall(key, ownerToken, lease, waits).send(this.gateway));
	}

	@Override
	ScriptCall<TokenAcquireReply, Attempt> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long leaseMillis = lease.toMillis();
		long sentNanos = System.nanoTime();
		return new ScriptCall<>(key, LockScripts.TOKEN_ACQUIRE, List.of(key.redisKey()),
				List.of(ownerToken, Long.toString(leaseMillis), waits ? "1" : "0"),
				(reply) -> (reply instanceof TokenAcquireReply.Held held)
						? Attempt.held(held.holderTtlMillis(), held.marked())
						: Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, leaseMillis)));
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		// No owner token: nothing is written but the mark.
		return this.gateway.run(LockScripts.TOKEN_ACQUIRE, key, List.of(key.redisKey()), List.of("", "1", "2"))
			.thenApply((reply) -> (reply instanceof TokenAcquireReply.Held held)
					? Attempt.held(held.holderTtlMillis(), held.marked()) : Attempt.LEFT_FREE);
	}

	@Override
	ScriptCall<TokenFenceReply, OptionalLong> fenceCall(LockKey key, Lease lease) {
		return new ScriptCall<>(key, LockScripts.TOKEN_FENCE, List.of(key.redisKey(), key.fenceKey()),
				List.of(lease.value(), Long.toString(lease.validityMillis() + this.fenceRetentionMillis)),
				(reply) -> (reply instanceof TokenFenceReply.Drawn drawn) ? OptionalLong.of(drawn.fencingToken())
						: OptionalLong.empty());
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.gateway.releaseToken(key, lease.value(), this.releaseChannel).thenApply((reply) -> switch (reply) {
			case DELETED -> ReleaseResult.RELEASED;
			case DELETED_AND_ANNOUNCED -> ReleaseResult.RELEASED_AND_ANNOUNCED;
			case NOT_OURS -> ReleaseResult.NOT_OURS;
		});
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		// The key holds the owner token itself: the release compares with it.
		return this.gateway.releaseToken(key, ownerToken, this.releaseChannel)
			.thenApply((reply) -> reply != TokenReleaseReply.NOT_OURS);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.gateway
			.run(LockScripts.TOKEN_KEEP, key, List.of(key.redisKey()),
					List.of(lease.value(), Long.toString(keep.toMillis()), this.releaseChannel))
			.thenApply((reply) -> switch (reply) {
				case KEPT -> ReleaseResult.RELEASED;
				case KEPT_AND_ANNOUNCED -> ReleaseResult.RELEASED_AND_ANNOUNCED;
				case NOT_OURS -> ReleaseResult.NOT_OURS;
			});
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		String leaseMillis = Long.toString(lease.toMillis());
		List<List<String>> calls = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			calls.add(List.of(keys.get(i).redisKey(), leases.get(i).value(), leaseMillis));
		}
		long sentNanos = System.nanoTime();
		return this.gateway.runBatch(LockScripts.TOKEN_KEEP, keys, 1, calls).thenApply((replies) -> {
			List<RenewalResult> results = new ArrayList<>(replies.size());
			for (int i = 0; i < replies.size(); i++) {
				RedisGateway.Replied<TokenKeepReply> replied = replies.get(i);
				Lease current = leases.get(i);
				if (replied.failure() != null) {
					results.add(RenewalResult.failed(replied.failure()));
				}
				else if (replied.reply() == TokenKeepReply.NOT_OURS) {
					results.add(RenewalResult.rejected(ReleaseResult.NOT_OURS));
				}
				else {
					results.add(RenewalResult
						.renewed(new Lease(current.value(), current.fencingToken(), sentNanos, lease.toMillis())));
				}
			}
			return results;
		});
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.gateway.exists(key);
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		String marked = lease.value() + "!";
		return this.gateway.value(key).thenApply(marked::equals);
	}

	@Override
	public boolean reChecksQuickly() {
		return false;
	}

}
