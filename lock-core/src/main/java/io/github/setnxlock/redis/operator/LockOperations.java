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
package io.github.setnxlock.redis.operator;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.redis.engine.EngineStats;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.protocol.OwnerTokens;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * What an operator does with locks: list the holds of this JVM, read a lock's state in
 * Redis, release a stuck lock by force, and check that Redis answers. The actuator's
 * {@code locks} endpoint and the health indicator use it.
 * <p>
 * Get one from {@code SetnxLockRegistry.operations()}, which sees the registry's holds;
 * an application whose {@code LockRegistry} is not a {@code SetnxLockRegistry} gets one
 * from {@code SetnxLockRegistry.operationsOn(template, settings)}, which works from Redis
 * alone: it lists no holds and cannot tell local holders of a force-release.
 *
 * @author setnx-lock authors
 */
public final class LockOperations {

	/** The operator's scripts, which a registry loads when it starts. */
	public static final List<LockScript> SCRIPTS = List.of(ForceReleaseReply.SCRIPT);

	private static final Log logger = LogFactory.getLog(LockOperations.class);

	private final RedisGateway gateway;

	private final RedlockOperations redlock;

	private final String keyPrefix;

	private final String protocol;

	private final boolean timestamps;

	private final String releaseChannel;

	private final Duration fenceRetention;

	private final LockEngine engine;

	/**
	 * Create the operations. Internal: use {@code SetnxLockRegistry.operations()}.
	 * @param gateway the way into Redis
	 * @param keyPrefix the prefix of the lock keys
	 * @param protocol the protocol's name, {@code token} or {@code timestamp}
	 * @param releaseChannel the channel releases are announced on
	 * @param fenceRetention how long a fencing counter outlives its last use
	 * @param engine the engine whose holds to show, or {@code null}
	 */
	public LockOperations(RedisGateway gateway, String keyPrefix, String protocol, String releaseChannel,
			Duration fenceRetention, LockEngine engine) {
		this(gateway, null, keyPrefix, protocol, releaseChannel, fenceRetention, engine);
	}

	/**
	 * Create the operations over the nodes of Redlock. Internal: use
	 * {@code SetnxLockRegistry.operations()}.
	 * @param names each node's name, in node order
	 * @param gateways each node's way into Redis
	 * @param keyPrefix the prefix of the lock keys
	 * @param protocol the protocol's name
	 * @param releaseChannel the channel releases are announced on
	 * @param fenceRetention how long a fencing counter outlives its last use
	 * @param engine the engine whose holds to show
	 */
	public LockOperations(List<String> names, List<RedisGateway> gateways, String keyPrefix, String protocol,
			String releaseChannel, Duration fenceRetention, LockEngine engine) {
		this(gateways.get(0), new RedlockOperations(List.copyOf(names), List.copyOf(gateways)), keyPrefix, protocol,
				releaseChannel, fenceRetention, engine);
	}

	private LockOperations(RedisGateway gateway, RedlockOperations redlock, String keyPrefix, String protocol,
			String releaseChannel, Duration fenceRetention, LockEngine engine) {
		this.gateway = gateway;
		this.redlock = redlock;
		this.keyPrefix = keyPrefix;
		this.protocol = protocol;
		this.timestamps = "timestamp".equals(protocol);
		this.releaseChannel = releaseChannel;
		this.fenceRetention = fenceRetention;
		this.engine = engine;
	}

	/**
	 * Check that Redis answers and holds the lock scripts, loading those it has
	 * forgotten, and describe the registry: what a health indicator shows. It talks to
	 * Redis, so it is meant for health checks, not for the lock path.
	 * @return details: the protocol, the key prefix, the number of scripts, and, for a
	 * registry's operations, how many keys it holds or waits for and whether release
	 * messages are received ({@code listening}, {@code not listening}, or
	 * {@code no subscription yet} before the first wait subscribes); under Redlock also
	 * {@code nodes}, each node's name with {@code up} or {@code down: <why>}
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be used: under
	 * Redlock, if fewer than a majority of the nodes answer
	 */
	public Map<String, Object> checkHealth() {
		Map<String, Object> details = new LinkedHashMap<>();
		Map<String, Object> nodes = new LinkedHashMap<>();
		// Under Redlock: up while a majority of nodes answers, each node's state shown.
		int scripts = (this.redlock != null) ? this.redlock.checkHealth(nodes) : this.gateway.loadScripts();
		details.put("protocol", this.protocol);
		details.put("keyPrefix", this.keyPrefix);
		details.put("scripts", scripts);
		if (this.engine != null) {
			EngineStats stats = this.engine.stats();
			details.put("localKeys", stats.localKeys());
			details.put("releaseMessages", releaseMessages(stats));
		}
		details.putAll(nodes);
		return details;
	}

	/**
	 * Describe the subscription to release messages: the first wait subscribes, so a
	 * registry that has not waited yet has none, and is not short of anything.
	 */
	private static String releaseMessages(EngineStats stats) {
		if (stats.listening()) {
			return "listening";
		}
		return stats.subscriptionRequested() ? "not listening" : "no subscription yet";
	}

	/**
	 * Return the holds of the registry's locks in this JVM, lost ones included until
	 * their owners unlock them. Answered locally, without Redis.
	 * @return the holds, oldest first
	 */
	public List<HeldLock> heldLocks() {
		if (this.engine == null) {
			return List.of();
		}
		long now = System.nanoTime();
		return this.engine.holds()
			.stream()
			.map((hold) -> new HeldLock(hold.key(), hold.name(), hold.ownerName(),
					Duration.ofNanos(now - hold.acquiredNanos()), Duration.ofMillis(hold.lease().remainingMillis(now)),
					hold.fencingToken(), hold.isRenewed(), hold.renewals(), hold.isLost(now),
					Math.max(1, hold.lease().nodeCount())))
			.sorted(Comparator.comparing(HeldLock::heldFor).reversed())
			.toList();
	}

	/**
	 * Return the prefix of the lock keys in Redis.
	 * @return the prefix, possibly empty
	 */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Return the locks held in Redis under the registry's key prefix by any instance of
	 * any application, each as {@link #inspect(String)} reads it (who holds it, the lease
	 * left, whether this JVM holds it). The keys come from {@code SCAN} on every primary
	 * (every node under Redlock); without a key prefix nothing is listed. It costs a scan
	 * and a read per lock: for operators, not for the lock path.
	 * @param limit the most locks to return
	 * @return the locks, by key, and whether that is all of them
	 */
	public RedisLocks heldInRedis(int limit) {
		List<RedisGateway> gateways = (this.redlock != null) ? this.redlock.gateways() : List.of(this.gateway);
		return new RedisLockListing(gateways, this.keyPrefix, this::inspect).list(limit);
	}

	/**
	 * Read what Redis holds for a lock now. An owner token is never shown: under the
	 * token protocol the value is left out.
	 * @param key the lock's key, without the registry's prefix
	 * @return the lock's state in Redis
	 * @throws io.github.setnxlock.LockAccessException if Redis cannot be read
	 */
	public LockState inspect(String key) {
		LockKey lock = LockKey.of(this.keyPrefix, LockKey.checkKey(key));
		RedlockOperations.Reading reading = (this.redlock != null) ? this.redlock.read(lock) : RedlockOperations.Reading
			.ofOne(LockEngine.awaitUninterrupted(this.gateway.read(lock, true, this.timestamps)));
		boolean heldHere = this.engine != null && this.engine.holds()
			.stream()
			.anyMatch((hold) -> hold.key().equals(key) && !hold.isLost(System.nanoTime()));
		RedisGateway.KeyReading read = reading.key();
		boolean held = !"none".equals(read.type());
		return new LockState(key, lock.redisKey(), this.protocol, held, read.type(), read.ttlMillis(),
				this.timestamps ? read.value() : null, heldHere, reading.nodes(), held ? holder(read) : null);
	}

	/**
	 * Return who holds a lock, as its owner token names it: the token is the key's value,
	 * or under the timestamp protocol the first word of the owner key, when that names
	 * the same value (else the owner key is another acquisition's, or stale).
	 */
	private String holder(RedisGateway.KeyReading read) {
		return OwnerTokens.holderOf(this.timestamps ? read.ownerToken() : read.value());
	}

	/**
	 * Release a lock whoever holds it, for an operator whose holder is stuck: the lock
	 * key is deleted, the fencing counter is moved past the holder's token, so that a
	 * resource that checks tokens refuses the holder's later writes, and waiters are
	 * woken. A holder in this JVM finds its lock lost at once (and is interrupted if it
	 * asked to be). Logged at WARN.
	 * @param key the lock's key, without the registry's prefix
	 * @return whether a lock key was there to delete
	 * @throws io.github.setnxlock.LockAccessException if Redis cannot be used, or the
	 * lock's fencing counter key holds something else (nothing is changed then)
	 */
	public boolean forceRelease(String key) {
		LockKey lock = LockKey.of(this.keyPrefix, LockKey.checkKey(key));
		// The timestamp protocol's owner key goes too; the token protocol has none, and
		// its ACL rules need not name one.
		List<String> keys = this.timestamps ? List.of(lock.redisKey(), lock.fenceKey(), lock.ownerKey())
				: List.of(lock.redisKey(), lock.fenceKey());
		List<String> args = List.of(Long.toString(this.fenceRetention.toMillis()), this.releaseChannel);
		ForceReleaseReply reply = (this.redlock != null)
				? this.redlock.forceRelease(lock,
						(node) -> node.run(ForceReleaseReply.SCRIPT, lock, keys, args)
							.thenApply((answer) -> ForceReleaseReply.decode(lock, answer)))
				: ForceReleaseReply.decode(lock,
						LockEngine.awaitUninterrupted(this.gateway.run(ForceReleaseReply.SCRIPT, lock, keys, args)));
		if (this.engine != null) {
			this.engine.forceReleased(lock);
		}
		logger.warn("Lock '" + key + "' (Redis key '" + lock.redisKey() + "') was force-released"
				+ (reply.deleted() ? "" : ", but nobody held it") + "; fencing tokens now start above "
				+ reply.nextFencingToken());
		return reply.deleted();
	}

}
