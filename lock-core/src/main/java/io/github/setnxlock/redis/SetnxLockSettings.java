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

/**
 * How a {@link SetnxLockRegistry} behaves. Immutable; build one with {@link #builder()}.
 * <p>
 * Each setting is documented on its {@link Builder} method, with its default and the
 * values it takes. Every value is checked when it is set, so a bad one fails with a
 * message that names it rather than surfacing later inside a lock call.
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
	 * {@return the settings with every default}
	 */
	public static SetnxLockSettings defaults() {
		return builder().build();
	}

	/**
	 * {@return a new builder that starts from the defaults}
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * {@return a new builder that starts from these settings}
	 */
	public Builder toBuilder() {
		return new Builder(this.values);
	}

	/**
	 * {@return the {@linkplain Builder#keyPrefix(String) prefix} put before every lock
	 * key}
	 */
	public String keyPrefix() {
		return this.values.keyPrefix;
	}

	/**
	 * {@return the {@linkplain Builder#protocol(LockProtocol) protocol}}
	 */
	public LockProtocol protocol() {
		return this.values.protocol;
	}

	/**
	 * {@return the {@linkplain Builder#leaseTime(Duration) lease} of acquisitions that do
	 * not name one}
	 */
	public Duration leaseTime() {
		return this.values.leaseTime;
	}

	/**
	 * {@return the {@linkplain Builder#timestampUnit(TimestampUnit) unit} of stored
	 * timestamps}
	 */
	public TimestampUnit timestampUnit() {
		return this.values.timestampUnit;
	}

	/**
	 * {@return {@linkplain Builder#timestampClock(TimestampClock) where} the timestamp
	 * protocol reads the time}
	 */
	public TimestampClock timestampClock() {
		return this.values.timestampClock;
	}

	/**
	 * {@return the {@linkplain Builder#localClock(Clock) wall clock} used under
	 * {@link TimestampClock#LOCAL}}
	 */
	public Clock localClock() {
		return this.values.localClock;
	}

	/**
	 * {@return whether holds without a lease of their own are
	 * {@linkplain Builder#renewal(boolean) renewed}}
	 */
	public boolean renewal() {
		return this.values.renewal;
	}

	/**
	 * {@return how long a renewed hold {@linkplain Builder#maxHold(Duration) may last},
	 * or {@code null}}
	 */
	public Duration maxHold() {
		return this.values.maxHold;
	}

	/**
	 * {@return the {@linkplain Builder#releaseChannel(String) channel} on which releases
	 * are announced}
	 */
	public String releaseChannel() {
		return this.values.releaseChannel;
	}

	/**
	 * {@return whether waiters also listen to
	 * {@linkplain Builder#keyspaceNotifications(boolean) keyspace notifications}}
	 */
	public boolean keyspaceNotifications() {
		return this.values.keyspaceNotifications;
	}

	/**
	 * {@return how many replicas the {@linkplain Builder#replicationGuard(int, Duration)
	 * replication guard} waits for, {@code 0} when it is off}
	 */
	public int replicationGuardReplicas() {
		return this.values.replicationGuardReplicas;
	}

	/**
	 * {@return how long the {@linkplain Builder#replicationGuard(int, Duration)
	 * replication guard} waits for the replicas}
	 */
	public Duration replicationGuardTimeout() {
		return this.values.replicationGuardTimeout;
	}

	/**
	 * {@return how releases {@linkplain Builder#localHandoff(LocalHandoffSettings) pass
	 * the lock} to a thread of this registry that waits for it}
	 */
	public LocalHandoffSettings localHandoff() {
		return this.values.localHandoff;
	}

	/**
	 * {@return how long a Redlock node has {@linkplain Builder#nodeTimeout(Duration) to
	 * answer}}
	 */
	public Duration nodeTimeout() {
		return this.values.nodeTimeout;
	}

	/**
	 * {@return how long a Redlock node that restarted
	 * {@linkplain Builder#restartDelay(Duration) sits out}: the {@link #leaseTime()}
	 * unless set, {@link Duration#ZERO} when restarts are not checked}
	 */
	public Duration restartDelay() {
		return (this.values.restartDelay != null) ? this.values.restartDelay : this.values.leaseTime;
	}

	/**
	 * {@return whether owner tokens {@linkplain Builder#holderIdentity(boolean) name
	 * their holder}}
	 */
	public boolean holderIdentity() {
		return this.values.holderIdentity;
	}

	/**
	 * {@return the {@linkplain Builder#applicationName(String) application name} that
	 * owner tokens give for their holder, or {@code null} for none}
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
		 * Set the prefix put before every lock key: {@code "lock:"} by default. The Redis
		 * key of lock {@code K} is exactly {@code prefix + K}.
		 * @param keyPrefix the prefix, possibly empty; well-formed Unicode (no lone
		 * surrogate, which Redis would store as {@code ?})
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = SettingChecks.keyPrefix(keyPrefix);
			return this;
		}

		/**
		 * Set the protocol: {@link LockProtocol#TOKEN} by default.
		 * @param protocol the protocol
		 * @return this builder
		 */
		public Builder protocol(LockProtocol protocol) {
			this.protocol = Objects.requireNonNull(protocol, "protocol must not be null");
			return this;
		}

		/**
		 * Set the lease of acquisitions that do not name one: 30 seconds by default.
		 * @param leaseTime a positive duration of at most 365 days
		 * @return this builder
		 */
		public Builder leaseTime(Duration leaseTime) {
			this.leaseTime = LeaseLimits.check("leaseTime", leaseTime);
			return this;
		}

		/**
		 * Set the unit of stored timestamps under the timestamp protocol:
		 * {@link TimestampUnit#SECONDS} by default.
		 * @param timestampUnit the unit
		 * @return this builder
		 */
		public Builder timestampUnit(TimestampUnit timestampUnit) {
			this.timestampUnit = Objects.requireNonNull(timestampUnit, "timestampUnit must not be null");
			return this;
		}

		/**
		 * Set where the timestamp protocol reads the time: {@link TimestampClock#REDIS}
		 * by default.
		 * @param timestampClock the clock source
		 * @return this builder
		 */
		public Builder timestampClock(TimestampClock timestampClock) {
			this.timestampClock = Objects.requireNonNull(timestampClock, "timestampClock must not be null");
			return this;
		}

		/**
		 * Set the wall clock used under {@link TimestampClock#LOCAL}: the system clock by
		 * default; tests use it to give a client a clock that is off.
		 * @param localClock the clock
		 * @return this builder
		 */
		public Builder localClock(Clock localClock) {
			this.localClock = Objects.requireNonNull(localClock, "localClock must not be null");
			return this;
		}

		/**
		 * Set whether holds taken without a lease of their own are renewed while held:
		 * {@code true} by default.
		 * @param renewal whether the watchdog renews leases
		 * @return this builder
		 */
		public Builder renewal(boolean renewal) {
			this.renewal = renewal;
			return this;
		}

		/**
		 * Set how long a renewed hold may last before renewals stop and it ends with its
		 * lease: no limit by default.
		 * @param maxHold a positive duration of at most 365 days, or {@code null} for no
		 * limit
		 * @return this builder
		 */
		public Builder maxHold(Duration maxHold) {
			this.maxHold = SettingChecks.maxHold(maxHold);
			return this;
		}

		/**
		 * Set the Redis pub/sub channel on which releases are announced (the message is
		 * the lock key), so that waiters wake up at once: {@code "setnx-lock:released"}
		 * by default. Every client of the same locks must use the same channel.
		 * @param releaseChannel the channel; not blank
		 * @return this builder
		 */
		public Builder releaseChannel(String releaseChannel) {
			this.releaseChannel = SettingChecks.releaseChannel(releaseChannel);
			return this;
		}

		/**
		 * Set whether waiters also listen to the server's keyspace notifications for lock
		 * keys ({@code __keyspace@*__:<prefix>*}): {@code false} by default. Under the
		 * timestamp protocol, clients of the documented pattern release with a plain
		 * {@code DEL} and announce nothing; with the server's
		 * {@code notify-keyspace-events} set to include {@code K} and {@code g}, the
		 * notification of that {@code DEL} wakes our waiters at once instead of at their
		 * next re-check.
		 * @param keyspaceNotifications whether to use keyspace notifications
		 * @return this builder
		 */
		public Builder keyspaceNotifications(boolean keyspaceNotifications) {
			this.keyspaceNotifications = keyspaceNotifications;
			return this;
		}

		/**
		 * Turn on the replication guard (off by default): after each acquisition, wait
		 * ({@code WAIT}) until the given number of replicas have acknowledged it, and
		 * fail the acquisition, releasing the key, when fewer did within the timeout.
		 * Without it, a failover to a replica that had not yet received the lock key lets
		 * a second client acquire the lock while the first still holds it.
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
		 * @param replicas how many replicas must acknowledge; {@code 0} (the default)
		 * turns the guard off
		 * @param timeout how long to wait for them; positive, in whole milliseconds (one
		 * second by default)
		 * @return this builder
		 */
		public Builder replicationGuard(int replicas, Duration timeout) {
			int checkedReplicas = SettingChecks.replicationGuardReplicas(replicas);
			this.replicationGuardTimeout = SettingChecks.replicationGuardTimeout(timeout);
			this.replicationGuardReplicas = checkedReplicas;
			return this;
		}

		/**
		 * Set how releases pass the lock to a thread of this registry that waits for it:
		 * {@link LocalHandoffSettings#DEFAULTS} by default.
		 * @param localHandoff the settings; {@link LocalHandoffSettings#OFF} sends every
		 * release through Redis
		 * @return this builder
		 */
		public Builder localHandoff(LocalHandoffSettings localHandoff) {
			this.localHandoff = Objects.requireNonNull(localHandoff, "localHandoff must not be null");
			return this;
		}

		/**
		 * Set how long a Redlock node has to answer a call before it counts as failed, so
		 * that a frozen node never holds a lock call up for longer: 100 ms by default,
		 * counted from the first node's answer (so that connecting, or a machine slow for
		 * every node, counts against none). A call is decided as soon as a majority has
		 * answered, so this bounds only the calls that a frozen or slow node would
		 * otherwise hold up; keep it well below a third of the lease, and above the
		 * nodes' usual round trip. Unused on a single Redis.
		 * @param nodeTimeout at least 1 ms and at most 1 minute
		 * @return this builder
		 * @see SetnxLockRegistry#SetnxLockRegistry(java.util.List, SetnxLockSettings,
		 * java.util.List)
		 */
		public Builder nodeTimeout(Duration nodeTimeout) {
			this.nodeTimeout = SettingChecks.nodeTimeout(nodeTimeout);
			return this;
		}

		/**
		 * Set how long a Redlock node that restarted sits out acquisitions and fencing
		 * draws, counted from its start (the Redis distributed-locks page's delayed
		 * restart): at least the longest lease any client of the same locks may hold,
		 * which is the lease time unless calls name longer leases. A node restarted
		 * without persistence has forgotten the keys of holders that still count on it;
		 * until every lease it may have held has ended, its yes could give a second
		 * client a majority. A restart is found by the server's uptime, read at the first
		 * contact, whenever the client connects to the node again, and after a call there
		 * failed, so it costs nothing on the way of a lock call. Lettuce tells every
		 * reconnection; a pooled client (Jedis) does not, and a restart is then found
		 * only by a call that fails on a connection of the old server. A fresh node is
		 * indistinguishable from a restarted one: nodes that all started moments ago give
		 * no lock before the delay. Nodes that persist every write
		 * ({@code appendfsync always}) do not need it. Unused on a single Redis.
		 * <p>
		 * With {@link Duration#ZERO} restarts are not checked: a node restarted without
		 * its data counts at once, and a holder whose key it forgot shares the lock with
		 * the next client that gets a majority with it, until its renewal finds the key
		 * gone (as on a single Redis restarted without data); fencing tokens still
		 * increase only as long as the servers' clocks agree better than the node stays
		 * down.
		 * @param restartDelay zero, or a positive duration of at most 365 days;
		 * {@code null} (the default) for the lease time
		 * @return this builder
		 */
		public Builder restartDelay(Duration restartDelay) {
			this.restartDelay = SettingChecks.restartDelay(restartDelay);
			return this;
		}

		/**
		 * Set whether owner tokens name their holder
		 * ({@code [application@]host/pid/thread} before the token's secret part), so that
		 * an operator sees who holds a lock with {@code redis-cli GET}, the {@code locks}
		 * endpoint and {@code LockOperations.inspect}: {@code true} by default. Turn it
		 * off where host names or thread names are not to be stored in Redis.
		 * @param holderIdentity whether holders are named
		 * @return this builder
		 */
		public Builder holderIdentity(boolean holderIdentity) {
			this.holderIdentity = holderIdentity;
			return this;
		}

		/**
		 * Set the application name that owner tokens give for their holder: none by
		 * default (the host, process id and thread still name it).
		 * @param applicationName the name; {@code null} or blank for none
		 * @return this builder
		 */
		public Builder applicationName(String applicationName) {
			this.applicationName = SettingChecks.applicationName(applicationName);
			return this;
		}

		/**
		 * {@return the settings}
		 */
		public SetnxLockSettings build() {
			return new SetnxLockSettings(this);
		}

	}

}
