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
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * The replication guard: a protocol's acquisitions count only once enough replicas have
 * acknowledged them ({@code WAIT}), so that a failover to a replica cannot silently hand
 * the lock to a second holder. An acquisition that too few replicas acknowledged within
 * the timeout is released (owner-checked) and fails with a {@link LockAccessException}.
 * <p>
 * {@code WAIT} waits for the writes of the connection it is sent on, so it must go on the
 * connection that ran the acquire script: the gateway sends both on one connection
 * ({@link RedisGateway#runAcknowledged}) and refuses a Redis Cluster connection, where it
 * cannot. Releases, renewals and reads go to the protocol unguarded. Internal API.
 *
 * @author setnx-lock authors
 */
public final class ReplicationGuard implements LockCommands {

	private final ScriptProtocol protocol;

	private final int replicas;

	private final long timeoutMillis;

	/**
	 * Guard a protocol.
	 * @param protocol the protocol: a {@link ScriptProtocol}, the token or the timestamp
	 * protocol
	 * @param replicas how many replicas must acknowledge
	 * @param timeout how long they have
	 */
	public ReplicationGuard(LockCommands protocol, int replicas, Duration timeout) {
		if (!(protocol instanceof ScriptProtocol scripted)) {
			throw new IllegalArgumentException(
					"The replication guard protects the token and timestamp protocols only, not " + protocol);
		}
		this.protocol = scripted;
		this.replicas = replicas;
		this.timeoutMillis = timeout.toMillis();
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return this.protocol.acquireCall(key, ownerToken, lease, waits)
			.sendAcknowledged(this.protocol.gateway, this.replicas, this.timeoutMillis)
			.thenCompose((acknowledged) -> checked(key, acknowledged));
	}

	private CompletableFuture<Attempt> checked(LockKey key, RedisGateway.Acknowledged<Attempt> acknowledged) {
		Attempt attempt = acknowledged.reply();
		if (!attempt.acquired() || acknowledged.replicas() >= this.replicas) {
			return CompletableFuture.completedFuture(attempt);
		}
		LockAccessException failure = (acknowledged.waitFailure() != null)
				? new LockAccessException(key.key(),
						"Could not wait for " + this.replicas + " replicas to acknowledge lock '" + key.key()
								+ "' (Redis key '" + key.redisKey() + "'); it was released and the acquisition fails: "
								+ acknowledged.waitFailure().getMessage(),
						acknowledged.waitFailure())
				: new LockAccessException(key.key(), "Lock '" + key.key() + "' (Redis key '" + key.redisKey()
						+ "') was acquired on the primary, but only " + acknowledged.replicas() + " of the "
						+ this.replicas + " replicas required acknowledged it within " + this.timeoutMillis
						+ " ms, so a failover could hand it to a second holder; it was released and the acquisition"
						+ " fails", null);
		// The key is written but its replication is not known enough: give it back, and
		// fail once the release has an answer, so that the key is gone when the caller
		// hears of it.
		return this.protocol.release(key, attempt.lease()).handle((released, releaseFailure) -> {
			if (releaseFailure != null) {
				// The key then ends with its lease.
				failure.addSuppressed(releaseFailure);
			}
			throw failure;
		});
	}

	/**
	 * Draw the fencing token with a {@code WAIT} behind the draw, where the draw is a
	 * call of its own: a token whose counter only the primary has could be drawn again,
	 * lower, after a failover. A token too few replicas acknowledged is not handed out
	 * (the hold stays; a later call draws again, higher).
	 */
	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		ScriptCall<OptionalLong> draw = this.protocol.fenceCall(key, lease);
		if (draw == null) {
			return this.protocol.fencingToken(key, lease);
		}
		return draw.sendAcknowledged(this.protocol.gateway, this.replicas, this.timeoutMillis)
			.thenApply((acknowledged) -> {
				if (acknowledged.reply().isEmpty() || acknowledged.replicas() >= this.replicas) {
					return acknowledged.reply();
				}
				throw new LockAccessException(key.key(), "The fencing token of lock '" + key.key() + "' (Redis key '"
						+ key.redisKey() + "') was drawn on the primary, but "
						+ ((acknowledged.waitFailure() != null)
								? "waiting for " + this.replicas + " replicas to acknowledge it failed ("
										+ acknowledged.waitFailure().getMessage() + ")"
								: "only " + acknowledged.replicas() + " of the " + this.replicas
										+ " replicas required acknowledged it within " + this.timeoutMillis + " ms")
						+ ", so a failover could draw it again; the lock is still held", acknowledged.waitFailure());
			});
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.protocol.release(key, lease);
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		return this.protocol.abandon(key, ownerToken);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.protocol.releaseKeeping(key, lease, keep);
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		return this.protocol.renew(keys, leases, lease);
	}

	@Override
	public CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		return this.protocol.shorten(key, lease, shorter);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.protocol.isLocked(key);
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return this.protocol.ownerToken(key);
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		return this.protocol.markHolder(key);
	}

	@Override
	public boolean marksWaiters() {
		return this.protocol.marksWaiters();
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		return this.protocol.waiterMarked(key, lease);
	}

	@Override
	public boolean reChecksQuickly() {
		return this.protocol.reChecksQuickly();
	}

}
