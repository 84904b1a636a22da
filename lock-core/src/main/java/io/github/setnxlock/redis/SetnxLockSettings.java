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
import java.util.Objects;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.redis.gateway.LockKey;

/**
 * How a {@link SetnxLockRegistry} behaves. Immutable; build one with {@link #builder()}.
 * <p>
 * Every value is checked when it is set, so a bad one fails with a message that names it
 * rather than surfacing later inside a lock call.
 *
 * @author setnx-lock authors
 */
public final class SetnxLockSettings {

	/** A private copy of the builder that built these settings: never changed. */
	private final Builder values;

	private SetnxLockSettings(Builder builder) {
		this.values = new Builder(builder);
	}

	/**
	 * Return the settings with every default.
	 * @return the default settings
	 */
	public static SetnxLockSettings defaults() {
		return builder().build();
	}

	/**
	 * Return a builder that starts from the defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder that starts from these settings.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		return new Builder(this.values);
	}

	/**
	 * Return the prefix put before every lock key: {@code "lock:"} by default. The Redis
	 * key of lock {@code K} is exactly {@code prefix + K}.
	 * @return the prefix, possibly empty
	 */
	public String keyPrefix() {
		return this.values.keyPrefix;
	}

	/**
	 * Return the protocol: {@link LockProtocol#TOKEN} by default.
	 * @return the protocol
	 */
	public LockProtocol protocol() {
		return this.values.protocol;
	}

	/**
	 * Return the lease of acquisitions that do not name one: 30 seconds by default.
	 * @return the default lease
	 */
	public Duration leaseTime() {
		return this.values.leaseTime;
	}

	/**
	 * Return the unit of stored timestamps under the timestamp protocol:
	 * {@link TimestampUnit#SECONDS} by default.
	 * @return the timestamp unit
	 */
	public TimestampUnit timestampUnit() {
		return this.values.timestampUnit;
	}

	/**
	 * Return where the timestamp protocol reads the time: {@link TimestampClock#REDIS} by
	 * default.
	 * @return the timestamp clock
	 */
	public TimestampClock timestampClock() {
		return this.values.timestampClock;
	}

	/**
	 * Return the wall clock used under {@link TimestampClock#LOCAL}: the system clock by
	 * default.
	 * @return the local clock
	 */
	public Clock localClock() {
		return this.values.localClock;
	}

	/**
	 * Return whether holds taken without a lease of their own are renewed while held:
	 * {@code true} by default.
	 * @return whether the watchdog renews leases
	 */
	public boolean renewal() {
		return this.values.renewal;
	}

	/**
	 * Return how long a renewed hold may last before renewals stop and it ends with its
	 * lease, or {@code null} for no limit (the default).
	 * @return the limit, or {@code null}
	 */
	public Duration maxHold() {
		return this.values.maxHold;
	}

	/**
	 * Return the Redis pub/sub channel on which releases are announced (the message is
	 * the lock key), so that waiters wake up at once: {@code "setnx-lock:released"} by
	 * default. Every client of the same locks must use the same channel.
	 * @return the channel
	 */
	public String releaseChannel() {
		return this.values.releaseChannel;
	}

	/**
	 * Return whether waiters also listen to the server's keyspace notifications for lock
	 * keys ({@code __keyspace@*__:<prefix>*}): {@code false} by default. Under the
	 * timestamp protocol, clients of the documented pattern release with a plain
	 * {@code DEL} and announce nothing; with the server's {@code notify-keyspace-events}
	 * set to include {@code K} and {@code g}, the notification of that {@code DEL} wakes
	 * our waiters at once instead of at their next re-check.
	 * @return whether keyspace notifications are used
	 */
	public boolean keyspaceNotifications() {
		return this.values.keyspaceNotifications;
	}

	/**
	 * Return how many replicas must acknowledge an acquisition before it counts:
	 * {@code 0} (the default) turns the replication guard off.
	 * @return the replicas the guard waits for
	 * @see Builder#replicationGuard(int, Duration)
	 */
	public int replicationGuardReplicas() {
		return this.values.replicationGuardReplicas;
	}

	/**
	 * Return how long the replication guard waits for the replicas: one second by
	 * default.
	 * @return the guard's timeout
	 * @see Builder#replicationGuard(int, Duration)
	 */
	public Duration replicationGuardTimeout() {
		return this.values.replicationGuardTimeout;
	}

	/**
	 * Return how releases pass the lock to a thread of this registry that waits for it:
	 * {@link LocalHandoffSettings#DEFAULTS} by default.
	 * @return the local hand-off settings
	 */
	public LocalHandoffSettings localHandoff() {
		return this.values.localHandoff;
	}

	/**
	 * Return how long a Redlock node has to answer a call before it counts as failed, so
	 * that a frozen node never holds a lock call up for longer: 100 ms by default,
	 * counted from the first node's answer (so that connecting, or a machine slow for
	 * every node, counts against none). Unused on a single Redis.
	 * @return the node timeout
	 * @see SetnxLockRegistry#SetnxLockRegistry(java.util.List, SetnxLockSettings,
	 * java.util.List)
	 */
	public Duration nodeTimeout() {
		return this.values.nodeTimeout;
	}

	/**
	 * Return how long a Redlock node that restarted sits out acquisitions and fencing
	 * draws, counted from its start: the {@link #leaseTime()} unless set. A node
	 * restarted without persistence has forgotten the keys of holders that still count on
	 * it; until every lease it may have held has ended, its yes could give a second
	 * client a majority. Unused on a single Redis.
	 * @return the restart delay, {@link Duration#ZERO} when restarts are not checked
	 * @see Builder#restartDelay(Duration)
	 */
	public Duration restartDelay() {
		return (this.values.restartDelay != null) ? this.values.restartDelay : this.values.leaseTime;
	}

	/**
	 * Return whether owner tokens name their holder
	 * ({@code [application@]host/pid/thread} before the token's secret part), so that an
	 * operator sees who holds a lock with {@code redis-cli GET}, the {@code locks}
	 * endpoint and {@code LockOperations.inspect}: {@code true} by default.
	 * @return whether holders are named
	 */
	public boolean holderIdentity() {
		return this.values.holderIdentity;
	}

	/**
	 * Return the application name that owner tokens give for their holder, or
	 * {@code null} for none (the host, process id and thread still name it).
	 * @return the application name
	 */
	public String applicationName() {
		return this.values.applicationName;
	}

	@Override
	public String toString() {
		return "SetnxLockSettings[keyPrefix='" + this.values.keyPrefix + "', protocol=" + this.values.protocol
				+ ", leaseTime=" + this.values.leaseTime + ", timestampUnit=" + this.values.timestampUnit
				+ ", timestampClock=" + this.values.timestampClock + ", renewal=" + this.values.renewal + ", maxHold="
				+ this.values.maxHold + ", releaseChannel='" + this.values.releaseChannel + "', keyspaceNotifications="
				+ this.values.keyspaceNotifications + ", replicationGuard=" + this.values.replicationGuardReplicas
				+ " replicas within " + this.values.replicationGuardTimeout + ", localHandoff="
				+ this.values.localHandoff + ", nodeTimeout=" + this.values.nodeTimeout + ", restartDelay="
				+ restartDelay() + ", holderIdentity=" + this.values.holderIdentity + ", applicationName="
				+ this.values.applicationName + "]";
	}

	/**
	 * Builds {@link SetnxLockSettings}. Each setter rejects a bad value at once.
	 */
	public static final class Builder {

		private String keyPrefix = "lock:";

		private LockProtocol protocol = LockProtocol.TOKEN;

		private Duration leaseTime = Duration.ofSeconds(30);

		private TimestampUnit timestampUnit = TimestampUnit.SECONDS;

		private TimestampClock timestampClock = TimestampClock.REDIS;

		private Clock localClock = Clock.systemUTC();

		private boolean renewal = true;

		private Duration maxHold;

		private String releaseChannel = "setnx-lock:released";

		private boolean keyspaceNotifications;

		private int replicationGuardReplicas;

		private Duration replicationGuardTimeout = Duration.ofSeconds(1);

		private LocalHandoffSettings localHandoff = LocalHandoffSettings.DEFAULTS;

		private Duration nodeTimeout = Duration.ofMillis(100);

		private Duration restartDelay;

		private boolean holderIdentity = true;

		private String applicationName;

		private Builder() {
		}

		private Builder(Builder other) {
			this.keyPrefix = other.keyPrefix;
			this.protocol = other.protocol;
			this.leaseTime = other.leaseTime;
			this.timestampUnit = other.timestampUnit;
			this.timestampClock = other.timestampClock;
			this.localClock = other.localClock;
			this.renewal = other.renewal;
			this.maxHold = other.maxHold;
			this.releaseChannel = other.releaseChannel;
			this.keyspaceNotifications = other.keyspaceNotifications;
			this.replicationGuardReplicas = other.replicationGuardReplicas;
			this.replicationGuardTimeout = other.replicationGuardTimeout;
			this.localHandoff = other.localHandoff;
			this.nodeTimeout = other.nodeTimeout;
			this.restartDelay = other.restartDelay;
			this.holderIdentity = other.holderIdentity;
			this.applicationName = other.applicationName;
		}

		/**
		 * Set whether owner tokens name their holder
		 * ({@code [application@]host/pid/thread} before the token's secret part), for
		 * operators who read who holds a lock. Turn it off where host names or thread
		 * names are not to be stored in Redis.
		 * @param holderIdentity whether holders are named; {@code true} by default
		 * @return this builder
		 */
		public Builder holderIdentity(boolean holderIdentity) {
			this.holderIdentity = holderIdentity;
			return this;
		}

		/**
		 * Set the application name that owner tokens give for their holder.
		 * @param applicationName the name, or {@code null} for none
		 * @return this builder
		 */
		public Builder applicationName(String applicationName) {
			this.applicationName = (applicationName != null && !applicationName.isBlank()) ? applicationName.trim()
					: null;
			return this;
		}

		/**
		 * Set how long a Redlock node that restarted sits out acquisitions and fencing
		 * draws, counted from its start (the Redis distributed-locks page's delayed
		 * restart): at least the longest lease any client of the same locks may hold,
		 * which is the lease time unless calls name longer leases. A restart is found by
		 * the server's uptime, read at the first contact, whenever the client connects to
		 * the node again, and after a call there failed, so it costs nothing on the way
		 * of a lock call. Lettuce tells every reconnection; a pooled client (Jedis) does
		 * not, and a restart is then found only by a call that fails on a connection of
		 * the old server. A fresh node is indistinguishable from a restarted one: nodes
		 * that all started moments ago give no lock before the delay. Nodes that persist
		 * every write ({@code appendfsync always}) do not need it.
		 * <p>
		 * With {@link Duration#ZERO} restarts are not checked: a node restarted without
		 * its data counts at once, and a holder whose key it forgot shares the lock with
		 * the next client that gets a majority with it, until its renewal finds the key
		 * gone (as on a single Redis restarted without data); fencing tokens still
		 * increase only as long as the servers' clocks agree better than the node stays
		 * down.
		 * @param restartDelay zero, or a positive duration of at most 365 days;
		 * {@code null} for the lease time
		 * @return this builder
		 */
		public Builder restartDelay(Duration restartDelay) {
			this.restartDelay = (restartDelay == null || restartDelay.isZero()) ? restartDelay
					: LeaseLimits.check("restartDelay", restartDelay);
			return this;
		}

		/**
		 * Set how long a Redlock node has to answer a call before it counts as failed. A
		 * call is decided as soon as a majority has answered, so this bounds only the
		 * calls that a frozen or slow node would otherwise hold up; keep it well below a
		 * third of the lease, and above the nodes' usual round trip.
		 * @param nodeTimeout at least 1 ms and at most 1 minute
		 * @return this builder
		 */
		public Builder nodeTimeout(Duration nodeTimeout) {
			if (nodeTimeout == null) {
				throw new IllegalArgumentException("nodeTimeout must not be null");
			}
			if (nodeTimeout.isNegative() || nodeTimeout.toMillis() < 1
					|| nodeTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
				throw new IllegalArgumentException(
						"nodeTimeout must be between 1ms and 1 minute, but was " + nodeTimeout);
			}
			this.nodeTimeout = nodeTimeout;
			return this;
		}

		/**
		 * Set how releases pass the lock to a thread of this registry that waits for it.
		 * @param localHandoff the settings; {@link LocalHandoffSettings#OFF} sends every
		 * release through Redis
		 * @return this builder
		 */
		public Builder localHandoff(LocalHandoffSettings localHandoff) {
			this.localHandoff = Objects.requireNonNull(localHandoff, "localHandoff must not be null");
			return this;
		}

		/**
		 * Turn on the replication guard: after each acquisition, wait ({@code WAIT})
		 * until the given number of replicas have acknowledged it, and fail the
		 * acquisition, releasing the key, when fewer did within the timeout. Without it,
		 * a failover to a replica that had not yet received the lock key lets a second
		 * client acquire the lock while the first still holds it.
		 * <p>
		 * {@code WAIT} runs on the connection that ran the acquire script, because it
		 * counts that connection's writes, and blocks that connection until the replicas
		 * answer: usually one round trip to them, but up to the whole timeout when a
		 * replica is down or lagging. Both go out on a connection of their own (a
		 * dedicated one with Lettuce, never the shared one that other lock commands use),
		 * so only that acquisition waits. Keep the timeout well below the client's
		 * command timeout, which would otherwise cut {@code WAIT} short and fail the
		 * acquisition. The guard does not make Redis strongly consistent: a failover can
		 * still lose an acknowledged write in rare cases. Not available on Redis Cluster
		 * connections (see {@link SetnxLockRegistry}).
		 * @param replicas how many replicas must acknowledge; {@code 0} turns the guard
		 * off
		 * @param timeout how long to wait for them; positive, in whole milliseconds
		 * @return this builder
		 */
		public Builder replicationGuard(int replicas, Duration timeout) {
			if (replicas < 0) {
				throw new IllegalArgumentException(
						"replicationGuard replicas must not be negative, but was " + replicas);
			}
			if (timeout == null) {
				throw new IllegalArgumentException("replicationGuard timeout must not be null");
			}
			if (timeout.isNegative() || timeout.toMillis() < 1) {
				// WAIT with a timeout of 0 waits forever, so zero is refused too.
				throw new IllegalArgumentException("replicationGuard timeout must be at least 1ms, but was " + timeout);
			}
			this.replicationGuardReplicas = replicas;
			this.replicationGuardTimeout = timeout;
			return this;
		}

		/**
		 * Set whether waiters also listen to the server's keyspace notifications for lock
		 * keys.
		 * @param keyspaceNotifications whether to use keyspace notifications
		 * @return this builder
		 */
		public Builder keyspaceNotifications(boolean keyspaceNotifications) {
			this.keyspaceNotifications = keyspaceNotifications;
			return this;
		}

		/**
		 * Set the pub/sub channel on which releases are announced.
		 * @param releaseChannel the channel; not blank
		 * @return this builder
		 */
		public Builder releaseChannel(String releaseChannel) {
			if (releaseChannel == null || releaseChannel.isBlank()) {
				throw new IllegalArgumentException(
						"releaseChannel must not be blank, but was '" + releaseChannel + "'");
			}
			this.releaseChannel = releaseChannel;
			return this;
		}

		/**
		 * Set whether holds taken without a lease of their own are renewed while held.
		 * @param renewal whether the watchdog renews leases
		 * @return this builder
		 */
		public Builder renewal(boolean renewal) {
			this.renewal = renewal;
			return this;
		}

		/**
		 * Set how long a renewed hold may last before renewals stop.
		 * @param maxHold a positive duration of at most 365 days, or {@code null} for no
		 * limit
		 * @return this builder
		 */
		public Builder maxHold(Duration maxHold) {
			this.maxHold = (maxHold != null) ? LeaseLimits.check("maxHold", maxHold) : null;
			return this;
		}

		/**
		 * Set the prefix put before every lock key; may be empty.
		 * @param keyPrefix the prefix; well-formed Unicode (no lone surrogate, which
		 * Redis would store as {@code ?})
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			Objects.requireNonNull(keyPrefix, "keyPrefix must not be null");
			this.keyPrefix = LockKey.checkWellFormed("keyPrefix", keyPrefix);
			return this;
		}

		/**
		 * Set the protocol.
		 * @param protocol the protocol
		 * @return this builder
		 */
		public Builder protocol(LockProtocol protocol) {
			this.protocol = Objects.requireNonNull(protocol, "protocol must not be null");
			return this;
		}

		/**
		 * Set the lease of acquisitions that do not name one.
		 * @param leaseTime a positive duration of at most 365 days
		 * @return this builder
		 */
		public Builder leaseTime(Duration leaseTime) {
			this.leaseTime = LeaseLimits.check("leaseTime", leaseTime);
			return this;
		}

		/**
		 * Set the unit of stored timestamps under the timestamp protocol.
		 * @param timestampUnit the unit
		 * @return this builder
		 */
		public Builder timestampUnit(TimestampUnit timestampUnit) {
			this.timestampUnit = Objects.requireNonNull(timestampUnit, "timestampUnit must not be null");
			return this;
		}

		/**
		 * Set where the timestamp protocol reads the time.
		 * @param timestampClock the clock source
		 * @return this builder
		 */
		public Builder timestampClock(TimestampClock timestampClock) {
			this.timestampClock = Objects.requireNonNull(timestampClock, "timestampClock must not be null");
			return this;
		}

		/**
		 * Set the wall clock used under {@link TimestampClock#LOCAL}; tests use it to
		 * give a client a clock that is off.
		 * @param localClock the clock
		 * @return this builder
		 */
		public Builder localClock(Clock localClock) {
			this.localClock = Objects.requireNonNull(localClock, "localClock must not be null");
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 */
		public SetnxLockSettings build() {
			return new SetnxLockSettings(this);
		}

	}

}
