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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.observation.LockObservationDocumentation;

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
 * own), kept for an hour past the last acquisition. Every application that shares the
 * Redis, the prefix and the protocol shares the locks. Keys are written in UTF-8, so a
 * key with a lone surrogate, which UTF-8 cannot carry, is rejected by
 * {@link #obtain(String)}.
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
 * one of them at a time asks Redis. While someone else holds a key, waiters retry after a
 * short jittered pause that doubles up to 64 ms and never outlasts the holder's lease.
 * <p>
 * <b>Guarantees and limits.</b> On one Redis primary, no two clients that follow the
 * protocol hold a key at once while both are within their leases. A holder whose process
 * pauses longer than its lease, or a failover to a replica that had not yet received the
 * lock key, can end up with two clients that both believe they hold it; only the
 * {@link LeasedLock#fencingToken() fencing token}, checked by the protected resource,
 * makes that safe. The timestamp protocol with {@link TimestampClock#LOCAL} also trusts
 * every client's clock.
 * <p>
 * <b>Replication.</b> The replication guard
 * ({@link SetnxLockSettings.Builder#replicationGuard(int, java.time.Duration)}, off by
 * default) makes an acquisition wait ({@code WAIT}) until a number of replicas have
 * acknowledged it, and fail, releasing the key, when fewer did in time; so a failover to
 * a replica that never received the lock key no longer hands the lock to a second holder
 * unnoticed. {@code WAIT} blocks the connection it runs on (Lettuce's shared connection
 * by default) until the replicas answer, up to the guard's timeout. It does not make
 * Redis strongly consistent: a failover can still lose an acknowledged write in rare
 * cases, so fencing tokens remain the defence. Sentinel and Redis Cluster work through
 * Spring Data Redis as a single server does (a lock key and its fencing counter share a
 * slot); the guard is refused on a Redis Cluster connection, where Spring Data Redis
 * cannot send {@code WAIT} on the connection that wrote the lock.
 * <p>
 * <b>Redis.</b> Nothing is sent to Redis when the registry is created. Scripts run by
 * SHA1 and are loaded again when a restarted Redis has forgotten them. When Redis fails,
 * lock calls throw {@link io.github.setnxlock.LockAccessException} naming the key; calls
 * with a wait time end by the end of their wait even when Redis stalls. Redis commands
 * run on threads of the registry's own (see {@code CommandRunner}), so an interrupt never
 * cuts one short; {@link #close()} stops them.
 *
 * @author setnx-lock authors
 */
public class SetnxLockRegistry implements LockRegistry, AutoCloseable {

	/**
	 * How long a fencing counter outlives the last acquisition of its lock. Tokens keep
	 * increasing after the counter is gone (see {@link LeasedLock#fencingToken()}), so
	 * one-off keys do not leave counters behind forever.
	 */
	static final Duration FENCE_RETENTION = Duration.ofHours(1);

	private static final Log logger = LogFactory.getLog(SetnxLockRegistry.class);

	final SetnxLockSettings settings;

	private final StringRedisTemplate redis;

	final LockCommands commands;

	final KeyStates states = new KeyStates();

	final OwnerTokens ownerTokens = new OwnerTokens();

	final CommandRunner runner = new CommandRunner();

	final AcquireLoop acquireLoop;

	final LockEvents events;

	final LockEvents renewalEvents;

	private volatile boolean closed;

	final ReleaseMessages messages;

	final LeaseRenewer renewer;

	volatile ObservationRegistry observations = ObservationRegistry.NOOP;

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
		this.redis = redis;
		LockCommands protocol = protocol(redis, ScriptCalls.of(redis, this.runner), settings);
		this.commands = (settings.replicationGuardReplicas() > 0)
				? new ReplicationGuard(protocol, protocol(redis, ScriptCalls.inline(redis), settings), redis,
						this.runner, settings.replicationGuardReplicas(), settings.replicationGuardTimeout())
				: protocol;
		this.messages = new ReleaseMessages(redis, settings.releaseChannel(),
				settings.keyspaceNotifications() ? keyspacePattern(settings.keyPrefix()) : null, this.states,
				this.runner);
		this.acquireLoop = new AcquireLoop(this.commands, this.messages, settings.protocol() == LockProtocol.TOKEN);
		this.events = new LockEvents(listeners);
		// What the renewal finds out reaches the listeners off its thread.
		this.renewalEvents = this.events.queued();
		this.renewer = new LeaseRenewer(this.commands, this.runner, this.states, settings.leaseTime(),
				settings.maxHold(), this.renewalEvents);
	}

	private static LockCommands protocol(StringRedisTemplate redis, ScriptCalls calls, SetnxLockSettings settings) {
		return switch (settings.protocol()) {
			case TOKEN -> new TokenLockCommands(redis, calls, FENCE_RETENTION, settings.releaseChannel());
			case TIMESTAMP -> new TimestampLockCommands(redis, calls, FENCE_RETENTION, settings);
		};
	}

	/**
	 * Return the keyspace notification pattern of every lock key with the given prefix,
	 * the prefix's glob characters escaped.
	 */
	static String keyspacePattern(String keyPrefix) {
		StringBuilder pattern = new StringBuilder("__keyspace@*__:");
		for (char c : keyPrefix.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append('*').toString();
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
		checkKey(key);
		return new RedisLeasedLock(this, LockKey.of(this.settings.keyPrefix(), key), name);
	}

	/**
	 * Refuse an acquisition once the registry is closed, before it reaches Redis.
	 * @param key the lock's key, for the message
	 * @throws IllegalStateException if the registry is closed
	 */
	void checkOpen(String key) {
		if (this.closed) {
			throw new IllegalStateException(
					"Lock registry is closed: lock '" + key + "' cannot be acquired through it any more");
		}
	}

	private static String checkKey(String key) {
		if (key == null) {
			throw new IllegalArgumentException("Lock key must not be null");
		}
		if (key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be empty or blank, but was '" + key + "'");
		}
		return LockKey.checkWellFormed("Lock key", key);
	}

	/**
	 * A hold in this JVM.
	 *
	 * @param key the lock's key, without the registry's prefix
	 * @param name the lock's logical name, empty when it has none
	 * @param thread the name of the holding thread
	 * @param heldFor how long it has been held
	 * @param leaseLeft how long its lease has left, as the holder counts it
	 * @param fencingToken its fencing token
	 * @param renewed whether its lease is renewed while held
	 * @param renewals how many times its lease was renewed
	 * @param lost whether it was lost (its thread still owes an unlock)
	 */
	public record HeldLock(String key, String name, String thread, Duration heldFor, Duration leaseLeft,
			long fencingToken, boolean renewed, int renewals, boolean lost) {

	}

	/**
	 * A lock's state in Redis.
	 *
	 * @param key the lock's key, without the registry's prefix
	 * @param redisKey the lock key in Redis
	 * @param protocol the registry's protocol
	 * @param held whether the lock key exists
	 * @param type the Redis type of the key, {@code none} when there is none
	 * @param ttlMillis the key's time to live in ms; {@code -1} without one, {@code -2}
	 * without a key
	 * @param timestamp under the timestamp protocol, the stored value; otherwise
	 * {@code null}, as an owner token is never shown
	 * @param heldHere whether a thread of this JVM holds it through this registry
	 */
	public record LockState(String key, String redisKey, String protocol, boolean held, String type, long ttlMillis,
			String timestamp, boolean heldHere) {

	}

	/**
	 * Return the settings this registry was created with.
	 * @return the settings
	 */
	public SetnxLockSettings getSettings() {
		return this.settings;
	}

	/**
	 * Observe waits for locks and holds of them ({@link LockObservationDocumentation}),
	 * so that traces show them; nothing is observed until this is set.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.observations = Objects.requireNonNull(observationRegistry, "observationRegistry must not be null");
	}

	/**
	 * Check that Redis answers and holds the lock scripts, loading those it has
	 * forgotten, and describe the registry: what a health indicator shows. It talks to
	 * Redis, so it is meant for health checks, not for the lock path.
	 * @return details: the protocol, the key prefix, the number of scripts, how many keys
	 * this registry holds or waits for, and whether release messages are received
	 * @throws org.springframework.dao.DataAccessException if Redis cannot be used
	 */
	public Map<String, Object> checkHealth() {
		String[] shas = LockScripts.ALL.stream().map(RedisScript::getSha1).toArray(String[]::new);
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			List<Boolean> loaded = connection.scriptingCommands().scriptExists(shas);
			for (int i = 0; i < shas.length; i++) {
				if (loaded == null || !Boolean.TRUE.equals(loaded.get(i))) {
					connection.scriptingCommands()
						.scriptLoad(LockScripts.ALL.get(i).getScriptAsString().getBytes(StandardCharsets.UTF_8));
				}
			}
			return null;
		});
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("protocol", this.settings.protocol().name().toLowerCase(Locale.ROOT));
		details.put("keyPrefix", this.settings.keyPrefix());
		details.put("scripts", shas.length);
		details.put("localKeys", this.states.size());
		details.put("releaseMessages", this.messages.listening() ? "listening" : "not listening");
		return details;
	}

	/**
	 * Return the holds of this registry's locks in this JVM, lost ones included until
	 * their threads unlock them. Answered locally, without Redis.
	 * @return the holds, oldest first
	 */
	public List<HeldLock> heldLocks() {
		long now = System.nanoTime();
		List<HeldLock> held = new ArrayList<>();
		this.states.forEach((state) -> state.holds()
			.forEach((hold) -> held.add(new HeldLock(hold.key.key(), hold.name, hold.thread.getName(),
					Duration.ofNanos(now - hold.acquiredNanos), Duration.ofMillis(hold.lease().remainingMillis(now)),
					hold.lease().fencingToken(), hold.renewed, hold.renewals(), hold.isLost(now)))));
		held.sort(Comparator.comparing(HeldLock::heldFor).reversed());
		return held;
	}

	/**
	 * Read what Redis holds for a lock now. An owner token is never shown: under the
	 * token protocol the value is left out.
	 * @param key the lock's key, without the registry's prefix
	 * @return the lock's state in Redis
	 * @throws io.github.setnxlock.LockAccessException if Redis cannot be read
	 */
	public LockState inspect(String key) {
		LockKey lock = LockKey.of(this.settings.keyPrefix(), checkKey(key));
		return RedisCall.run(lock, "read", () -> this.redis.execute((RedisCallback<LockState>) (connection) -> {
			byte[] redisKey = lock.redisKey().getBytes(StandardCharsets.UTF_8);
			String type = connection.keyCommands().type(redisKey).code();
			Long ttl = connection.keyCommands().pTtl(redisKey);
			String value = null;
			if ("string".equals(type) && this.settings.protocol() == LockProtocol.TIMESTAMP) {
				byte[] raw = connection.stringCommands().get(redisKey);
				value = (raw != null) ? new String(raw, StandardCharsets.UTF_8) : null;
			}
			KeyStates.KeyState state = this.states.find(lock.redisKey());
			boolean heldHere = state != null
					&& state.holds().stream().anyMatch((hold) -> !hold.isLost(System.nanoTime()));
			return new LockState(key, lock.redisKey(), this.settings.protocol().name().toLowerCase(Locale.ROOT),
					!"none".equals(type), type, (ttl != null) ? ttl : -2, value, heldHere);
		}));
	}

	/**
	 * Release a lock whoever holds it, for an operator whose holder is stuck: the lock
	 * key is deleted, the fencing counter is moved past the holder's token, so that a
	 * resource that checks tokens refuses the holder's later writes, and waiters are
	 * woken. A holder in this JVM finds its lock lost at its next renewal or unlock.
	 * Logged at WARN.
	 * @param key the lock's key, without the registry's prefix
	 * @return whether a lock key was there to delete
	 * @throws io.github.setnxlock.LockAccessException if Redis cannot be used, or the
	 * lock's fencing counter key holds something else (nothing is changed then)
	 */
	public boolean forceRelease(String key) {
		LockKey lock = LockKey.of(this.settings.keyPrefix(), checkKey(key));
		List<?> reply = RedisCall.list(lock,
				RedisCall.run(lock, "force-release",
						() -> this.redis.execute(LockScripts.FORCE_RELEASE, List.of(lock.redisKey(), lock.fenceKey()),
								Long.toString(FENCE_RETENTION.toMillis()), this.settings.releaseChannel())));
		long status = RedisCall.longAt(lock, reply, 0);
		if (status < 0) {
			throw RedisCall.notFenceCounter(lock, RedisCall.stringAt(lock, reply, 1));
		}
		boolean deleted = status == 1;
		KeyStates.KeyState state = this.states.find(lock.redisKey());
		if (state != null) {
			for (KeyStates.Hold hold : state.holds()) {
				if (hold.markLost(LockLostEvent.Reason.FORCE_RELEASED)) {
					if (hold.interruptOnLoss()) {
						hold.thread.interrupt();
					}
					this.events.lockLost(new LockLostEvent(key, hold.name, LockLostEvent.Reason.FORCE_RELEASED,
							hold.thread.getName(), hold.lease().fencingToken(), Instant.now()));
				}
			}
			state.holdChanged();
		}
		logger.warn("Lock '" + key + "' (Redis key '" + lock.redisKey() + "') was force-released"
				+ (deleted ? "" : ", but nobody held it") + "; fencing tokens now start above "
				+ RedisCall.longAt(lock, reply, 1));
		return deleted;
	}

	/**
	 * Return how many keys this registry keeps state for: the keys that some thread holds
	 * or waits for.
	 * @return the number of keys
	 */
	int localKeyCount() {
		return this.states.size();
	}

	/**
	 * Stop the threads that run Redis commands. Acquisitions fail afterwards with an
	 * {@link IllegalStateException}, before anything is sent to Redis. Held locks are not
	 * released: they end with their leases.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.messages.close();
		this.renewer.close();
		this.renewalEvents.close();
		this.runner.close();
	}

	@Override
	public String toString() {
		return "SetnxLockRegistry[" + this.settings + "]";
	}

}
