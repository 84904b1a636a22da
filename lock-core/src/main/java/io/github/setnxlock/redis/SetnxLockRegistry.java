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
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.observation.DefaultLockObservationConvention;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockObservationDocumentation;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.operator.LockOperations;

/**
 * A {@link LockRegistry} on Redis through Spring Data Redis, speaking the
 * {@link LockProtocol#TOKEN token} or the {@link LockProtocol#TIMESTAMP timestamp}
 * protocol.
 * <p>
 * <b>Keys.</b> The lock for key {@code K} is the Redis key {@code keyPrefix + K},
 * exactly: no separator or hash tag is added, so with an empty prefix the lock for
 * {@code lock.foo} is the key {@code lock.foo} of the {@code SETNX} documentation. Each
 * lock also has a fencing counter key in the same Redis Cluster slot
 * ({@code {lock:K}:fence}, or {@code lock:K:fence} when the key has a hash tag of its
 * own), kept for an hour past the last acquisition; under the timestamp protocol, an
 * owner key named the same way ({@code {lock:K}:owner}) lives as long as the lock key
 * (see docs/topologies.md on ACL rules). Every application that shares the Redis, the
 * prefix and the protocol shares the locks. Keys are written in UTF-8, so a key with a
 * lone surrogate, which UTF-8 cannot carry, is rejected by {@link #obtain(String)}.
 * <p>
 * <b>Leases.</b> Every hold is a lease: {@link SetnxLockSettings#leaseTime()} (30 s by
 * default) unless {@link LeasedLock#tryLock(Duration, Duration)} names one. Holds taken
 * without a lease of their own are renewed by a watchdog every third of the lease while
 * they are held (all of them in one pipelined round trip per tick), so a live holder
 * keeps its lock however long it works and a dead one loses it within one lease; an
 * explicit lease is never renewed, and {@link SetnxLockSettings#maxHold()} can cap how
 * long renewals go on. A hold is lost when a renewal finds the key taken, when renewals
 * cannot reach Redis before the holder's own deadline, or when an explicit lease ends:
 * {@link LeasedLock#isHeldByCurrentThread()} turns {@code false},
 * {@link LeasedLock#checkHeld()} and {@code unlock()} throw
 * {@link io.github.setnxlock.LockLostException}, and the {@link LockListener}s hear it
 * once.
 * <p>
 * <b>Threads.</b> Locks are reentrant per thread and held by the thread that acquired
 * them. Threads of one JVM that want the same key settle among themselves first, so only
 * one of them at a time asks Redis. While a holder of this library holds a key, waiters
 * wait for its release message, never longer than its lease; behind any other holder they
 * re-check after a short jittered pause (up to 64 ms, or 1 to 3 ms under the timestamp
 * protocol).
 * <p>
 * <b>Guarantees and limits.</b> On one Redis primary, no two clients that follow the
 * protocol hold a key at once while both are within their leases. A holder whose process
 * pauses longer than its lease, or a failover to a replica that had not yet received the
 * lock key, can end up with two clients that both believe they hold it; only the
 * {@link LeasedLock#fencingToken() fencing token}, checked by the protected resource,
 * makes that safe. The timestamp protocol with {@link TimestampClock#LOCAL} also trusts
 * every client's clock. With several independent masters
 * ({@link #SetnxLockRegistry(List, SetnxLockSettings, List) Redlock}) a lock survives the
 * loss of a minority of them.
 * <p>
 * <b>Replication.</b> The replication guard
 * ({@link SetnxLockSettings.Builder#replicationGuard(int, java.time.Duration)}, off by
 * default) makes an acquisition wait until a number of replicas have acknowledged it, so
 * that a failover to a replica that never received the lock key no longer hands the lock
 * to a second holder unnoticed; fencing tokens remain the defence against what it cannot
 * rule out. Sentinel and Redis Cluster work through Spring Data Redis as a single server
 * does (a lock key and its fencing counter share a slot); the guard is refused on a Redis
 * Cluster connection, where Spring Data Redis cannot send {@code WAIT} on the connection
 * that wrote the lock.
 * <p>
 * <b>Redis.</b> A registry on one Redis starts connecting and loading its scripts when it
 * is created, in the background, so that its first lock call finds them ready; it neither
 * waits for Redis nor fails when Redis is down. Scripts run by SHA1 and are loaded again
 * when a restarted Redis has forgotten them. When Redis fails, lock calls throw
 * {@link io.github.setnxlock.LockAccessException} naming the key; calls with a wait time
 * end by the end of their wait even when Redis stalls, except while the first connection
 * is still on its way (nothing answered, nothing refused): a client that has just started
 * takes longer than a short wait to connect, which is no evidence of an outage, so a call
 * then waits for its answer while the client sets the connection up (at most the client's
 * connect timeout), and a second after the client reached Redis. Once a call finds Redis
 * unreachable (a connection refused or reset, a command timeout) and until Redis answers
 * again, calls that would wait for another call of this registry to finish with the same
 * key fail at once instead of waiting their turn; the one asking Redis still asks, so
 * that Redis's return is noticed. Redis commands never run on the caller's thread, so an
 * interrupt never cuts one short; {@link #close()} stops the registry's threads.
 *
 * @author setnx-lock authors
 */
public class SetnxLockRegistry implements LockRegistry, AutoCloseable {

	private final SetnxLockSettings settings;

	private final RegistryWiring parts;

	private volatile LockWaitObservationConvention waitConvention;

	private volatile LockHoldObservationConvention holdConvention;

	/**
	 * Create a registry with {@link SetnxLockSettings#defaults() the default settings}.
	 * @param redis the template to talk to Redis with
	 */
	public SetnxLockRegistry(StringRedisTemplate redis) {
		this(redis, SetnxLockSettings.defaults());
	}

	/**
	 * Create a registry.
	 * @param redis the template to talk to Redis with
	 * @param settings the settings
	 */
	public SetnxLockRegistry(StringRedisTemplate redis, SetnxLockSettings settings) {
		this(redis, settings, List.of());
	}

	/**
	 * Create a registry that reports to listeners.
	 * @param redis the template to talk to Redis with
	 * @param settings the settings
	 * @param listeners the listeners, called in this order
	 */
	public SetnxLockRegistry(StringRedisTemplate redis, SetnxLockSettings settings, List<LockListener> listeners) {
		Objects.requireNonNull(redis, "redis must not be null");
		Objects.requireNonNull(listeners, "listeners must not be null");
		this.settings = Objects.requireNonNull(settings, "settings must not be null");
		this.parts = RegistryWiring.single(redis, settings, listeners);
	}

	/**
	 * Create a registry that runs the Redlock algorithm of the Redis distributed-locks
	 * page over independent Redis masters, under the token protocol: a lock is held while
	 * a majority of the nodes hold its key; every command goes to all nodes at once, and
	 * a node that does not answer within {@link SetnxLockSettings#nodeTimeout()} counts
	 * as failed. Fencing tokens are drawn on a majority, so that no later holder's token
	 * is smaller (see {@code RedlockCommands}). A majority of nodes unreachable makes an
	 * acquisition throw a {@link io.github.setnxlock.LockAccessException} naming them.
	 * <p>
	 * The delayed-restart rule of the Redis page is enforced: a node that has been up for
	 * less than {@link SetnxLockSettings#restartDelay()} (the lease time by default)
	 * counts for no acquisition and no fencing draw, since it may have forgotten keys
	 * that holders still count on. A lease named in a call that is longer than that delay
	 * is not covered.
	 * @param nodes the nodes, at least 3, each with a connection of its own
	 * @param settings the settings: the token protocol, without the replication guard
	 * @param listeners the listeners, called in this order
	 * @throws IllegalArgumentException if there are fewer than 3 nodes, two nodes share a
	 * name, or the settings ask for the timestamp protocol or the replication guard
	 */
	public SetnxLockRegistry(List<RedlockNode> nodes, SetnxLockSettings settings, List<LockListener> listeners) {
		Objects.requireNonNull(nodes, "nodes must not be null");
		Objects.requireNonNull(listeners, "listeners must not be null");
		this.settings = Objects.requireNonNull(settings, "settings must not be null");
		this.parts = RegistryWiring.redlock(nodes, settings, listeners);
	}

	/**
	 * Return the operator API for the locks of an application whose {@link LockRegistry}
	 * is not a {@code SetnxLockRegistry} but shares its Redis keys: it works from Redis
	 * alone, so it lists no holds and cannot tell local holders of a force-release. Its
	 * threads end when idle; nothing needs closing.
	 * @param redis the template to talk to Redis with
	 * @param settings the settings whose key prefix, protocol and release channel to use
	 * @return the operator API
	 */
	public static LockOperations operationsOn(StringRedisTemplate redis, SetnxLockSettings settings) {
		return RegistryWiring.operationsOn(redis, settings);
	}

	/**
	 * {@return the name a registry's locks carry as their protocol in observations,
	 * meters and the operator API: the protocol's name in lower case, or {@code redlock}
	 * for a registry on Redlock nodes}
	 * @param protocol the protocol of the settings
	 * @param redlock whether the registry runs on Redlock nodes
	 */
	public static String protocolName(LockProtocol protocol, boolean redlock) {
		return redlock ? "redlock" : protocol.name().toLowerCase(Locale.ROOT);
	}

	@Override
	public LeasedLock obtain(String key) {
		return obtain(key, "");
	}

	@Override
	public LeasedLock obtain(String key, String name) {
		if (name == null) {
			throw new IllegalArgumentException("Lock name must not be null; use an empty name for none");
		}
		return this.parts.engine().obtain(LockKey.of(this.settings.keyPrefix(), LockKey.checkKey(key)), name);
	}

	/**
	 * {@return the settings this registry was created with}
	 */
	public SetnxLockSettings getSettings() {
		return this.settings;
	}

	/**
	 * {@return the operator API of this registry: its holds in this JVM, the state of any
	 * lock in Redis, force-release, and a health check}
	 */
	public LockOperations operations() {
		return this.parts.operations();
	}

	/**
	 * Observe waits for locks and holds of them ({@link LockObservationDocumentation}),
	 * so that traces show them; nothing is observed until this is set.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.parts.engine()
			.setObservationRegistry(
					Objects.requireNonNull(observationRegistry, "observationRegistry must not be null"));
	}

	/**
	 * Name and tag the observations of waits with the application's convention instead of
	 * {@link DefaultLockObservationConvention#forWaits()}.
	 * @param convention the convention, or {@code null} for the default (or a global
	 * convention of the observation registry)
	 */
	public void setWaitObservationConvention(LockWaitObservationConvention convention) {
		this.waitConvention = convention;
		this.parts.engine().setObservationConventions(this.waitConvention, this.holdConvention);
	}

	/**
	 * Name and tag the observations of holds with the application's convention instead of
	 * {@link DefaultLockObservationConvention#forHolds()}.
	 * @param convention the convention, or {@code null} for the default (or a global
	 * convention of the observation registry)
	 */
	public void setHoldObservationConvention(LockHoldObservationConvention convention) {
		this.holdConvention = convention;
		this.parts.engine().setObservationConventions(this.waitConvention, this.holdConvention);
	}

	/** For tests that need a handshake with the engine's threads. */
	LockEngine engine() {
		return this.parts.engine();
	}

	/**
	 * For tests that count what later calls load: the warm-up begun at creation, done
	 * whether or not Redis answered.
	 */
	CompletableFuture<?> warmedUp() {
		return this.parts.warmUp();
	}

	/** How many keys this registry keeps state for: held or waited for. */
	int localKeyCount() {
		return this.parts.engine().stats().localKeys();
	}

	/**
	 * Stop the threads that run Redis commands. Acquisitions fail afterwards with an
	 * {@link IllegalStateException}, before anything is sent to Redis. Held locks are not
	 * released: they end with their leases.
	 */
	@Override
	public void close() {
		this.parts.close();
	}

	@Override
	public String toString() {
		return "SetnxLockRegistry["
				+ (this.parts.nodeNames().isEmpty() ? "" : "redlock on " + this.parts.nodeNames() + ", ")
				+ this.settings + "]";
	}

}
