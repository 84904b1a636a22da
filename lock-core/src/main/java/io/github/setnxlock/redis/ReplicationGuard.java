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
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LockAccessException;

/**
 * The replication guard: a protocol's acquisitions count only once enough replicas have
 * acknowledged them ({@code WAIT}), so that a failover to a replica cannot silently hand
 * the lock to a second holder. An acquisition that too few replicas acknowledged within
 * the timeout is released (owner-checked) and fails with a {@link LockAccessException}.
 * <p>
 * {@code WAIT} waits for the writes of the connection it is sent on, so it must go on the
 * connection that ran the acquire script: on another one it would count nothing and
 * return at once. Both run in one {@link SessionCallback}, which binds one Spring Data
 * Redis connection to the thread, and that connection uses one Redis connection for both
 * commands: Lettuce's shared native connection, or a dedicated one when sharing is off.
 * On a shared connection, {@code WAIT} also covers writes that other threads made there
 * meanwhile, which only makes it wait a little longer.
 * <p>
 * On Redis Cluster it refuses to work: Spring Data Redis sends a command without a key,
 * such as {@code WAIT}, to a node connection of its own choosing, not to the one that ran
 * the script, so {@code WAIT} there would count nothing and the guard would promise what
 * it does not check.
 * <p>
 * The session blocks, so guarded acquisitions run on a {@link CommandRunner} thread, with
 * the protocol's script sent through the template inside the session rather than on
 * Lettuce's asynchronous API, which would bypass it. Releases, renewals and reads go to
 * the protocol unguarded.
 *
 * @author setnx-lock authors
 */
final class ReplicationGuard implements LockCommands {

	private final LockCommands protocol;

	private final LockCommands inSession;

	private final StringRedisTemplate redis;

	private final CommandRunner runner;

	private final int replicas;

	private final long timeoutMillis;

	/**
	 * Guard a protocol.
	 * @param protocol the protocol, for everything but acquisitions
	 * @param inSession the same protocol on {@link ScriptCalls#inline inline calls}, for
	 * acquisitions inside the session
	 * @param redis the template
	 * @param runner the threads that acquisitions run on
	 * @param replicas how many replicas must acknowledge
	 * @param timeout how long they have
	 */
	ReplicationGuard(LockCommands protocol, LockCommands inSession, StringRedisTemplate redis, CommandRunner runner,
			int replicas, Duration timeout) {
		this.protocol = protocol;
		this.inSession = inSession;
		this.redis = redis;
		this.runner = runner;
		this.replicas = replicas;
		this.timeoutMillis = timeout.toMillis();
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return this.runner.submit(() -> acquireAcknowledged(key, ownerToken, lease, waits));
	}

	private Attempt acquireAcknowledged(LockKey key, String ownerToken, Duration lease, boolean waits) {
		Acknowledged acknowledged = RedisCall.run(key, "acquire",
				() -> this.redis.execute(new SessionCallback<Acknowledged>() {

					@Override
					public <K, V> Acknowledged execute(RedisOperations<K, V> operations) {
						return acquireAndWait(key, ownerToken, lease, waits);
					}

				}));
		Attempt attempt = acknowledged.attempt();
		if (attempt.acquired() && acknowledged.replicas() < this.replicas) {
			LockAccessException failure = new LockAccessException(key.key(), "Lock '" + key.key() + "' (Redis key '"
					+ key.redisKey() + "') was acquired on the primary, but only " + acknowledged.replicas()
					+ " of the " + this.replicas + " replicas required acknowledged it within " + this.timeoutMillis
					+ " ms, so a failover could hand it to a second holder; it was released and the acquisition fails",
					null);
			release(key, attempt.lease(), failure);
			throw failure;
		}
		return attempt;
	}

	private Acknowledged acquireAndWait(LockKey key, String ownerToken, Duration lease, boolean waits) {
		// The connections themselves, not the template's proxies of them, which hide
		// their kind; the session keeps them open.
		if (Boolean.TRUE.equals(this.redis.execute((RedisCallback<Boolean>) WaitCommand::isCluster, true))) {
			throw new LockAccessException(key.key(), "The replication guard cannot protect lock '" + key.key()
					+ "' on a Redis Cluster connection: Spring Data Redis sends WAIT to another node connection than"
					+ " the one that wrote the lock, where it would count nothing; turn the guard off (replicas 0)",
					null);
		}
		// The protocol's template finds the connection this session bound to the thread.
		Attempt attempt = CommandRunner.answered(this.inSession.acquire(key, ownerToken, lease, waits));
		if (!attempt.acquired()) {
			return new Acknowledged(attempt, 0);
		}
		try {
			Object answer = this.redis.execute((RedisCallback<Object>) (connection) -> WaitCommand.send(connection,
					this.replicas, this.timeoutMillis), true);
			if (!(answer instanceof Number number)) {
				throw new LockAccessException(key.key(),
						"Unexpected answer to WAIT for lock '" + key.key() + "': " + answer, null);
			}
			return new Acknowledged(attempt, number.longValue());
		}
		catch (RuntimeException ex) {
			// The key is written but its replication is unknown: give it back.
			LockAccessException failure = new LockAccessException(key.key(),
					"Could not wait for " + this.replicas + " replicas to acknowledge lock '" + key.key()
							+ "' (Redis key '" + key.redisKey() + "'); it was released and the acquisition fails: "
							+ ex.getMessage(),
					ex);
			release(key, attempt.lease(), failure);
			throw failure;
		}
	}

	private void release(LockKey key, Lease lease, LockAccessException failure) {
		try {
			CommandRunner.answered(this.inSession.release(key, lease));
		}
		catch (RuntimeException ex) {
			// The key then ends with its lease.
			failure.addSuppressed(ex);
		}
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		return this.protocol.release(key, lease);
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		return this.protocol.releaseKeeping(key, lease, keep);
	}

	@Override
	public List<RenewalResult> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		return this.protocol.renew(keys, leases, lease);
	}

	@Override
	public boolean isLocked(LockKey key) {
		return this.protocol.isLocked(key);
	}

	/**
	 * An attempt and how many replicas acknowledged it.
	 */
	private record Acknowledged(Attempt attempt, long replicas) {

	}

}
