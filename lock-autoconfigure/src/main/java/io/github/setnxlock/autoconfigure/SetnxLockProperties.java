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

package io.github.setnxlock.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.TimestampClock;
import io.github.setnxlock.redis.TimestampUnit;

/**
 * Configuration properties for setnx-lock, under {@code setnx.lock}.
 *
 * @author setnx-lock authors
 */
@ConfigurationProperties("setnx.lock")
public class SetnxLockProperties {

	/**
	 * Whether to auto-configure the lock registry and the @DistributedLock advice.
	 */
	private boolean enabled = true;

	/**
	 * Prefix put before every lock key. The Redis key of lock K is exactly prefix + K; an
	 * empty prefix gives the documented SETNX pattern's keys, such as 'lock.foo'.
	 */
	private String keyPrefix = "lock:";

	/**
	 * How locks are kept in Redis: 'token' (an owner token that expires with the lease)
	 * or 'timestamp' (the SETNX documentation's pattern, shared with its other clients).
	 */
	private LockProtocol protocol = LockProtocol.TOKEN;

	/**
	 * Lease of acquisitions that do not name one, renewed by the watchdog while held: a
	 * holder that dies loses its locks within this time.
	 */
	private Duration leaseTime = Duration.ofSeconds(30);

	/**
	 * How long @DistributedLock methods wait for their lock when neither the annotation
	 * nor the lock's own settings say.
	 */
	private Duration waitTime = Duration.ofSeconds(5);

	/**
	 * Redis pub/sub channel on which releases are announced, so waiters wake up at once.
	 * Every client of the same locks must use the same channel.
	 */
	private String releaseChannel = "setnx-lock:released";

	private final Timestamp timestamp = new Timestamp();

	private final Renewal renewal = new Renewal();

	private final Aspect aspect = new Aspect();

	private final Metrics metrics = new Metrics();

	private final Endpoint endpoint = new Endpoint();

	private final ReplicationGuard replicationGuard = new ReplicationGuard();

	private final LocalHandoff localHandoff = new LocalHandoff();

	@NestedConfigurationProperty
	private final RedlockProperties redlock = new RedlockProperties();

	/**
	 * Settings of single locks, by the lock's name (the @DistributedLock name, by default
	 * 'SimpleClassName.methodName'; in brackets when it has dots, such as
	 * 'locks[Orders.place].wait-time'). Each takes 'wait-time' and 'lease-time', which
	 * take precedence over the annotation.
	 */
	private final Map<String, Lock> locks = new LinkedHashMap<>();

	/**
	 * Return the value of {@code setnx.lock.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set the value of {@code setnx.lock.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the value of {@code setnx.lock.key-prefix}.
	 * @return the value
	 */
	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Set the value of {@code setnx.lock.key-prefix}.
	 * @param keyPrefix the value
	 */
	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Return the value of {@code setnx.lock.protocol}.
	 * @return the value
	 */
	public LockProtocol getProtocol() {
		return this.protocol;
	}

	/**
	 * Set the value of {@code setnx.lock.protocol}.
	 * @param protocol the value
	 */
	public void setProtocol(LockProtocol protocol) {
		this.protocol = protocol;
	}

	/**
	 * Return the value of {@code setnx.lock.lease-time}.
	 * @return the value
	 */
	public Duration getLeaseTime() {
		return this.leaseTime;
	}

	/**
	 * Set the value of {@code setnx.lock.lease-time}.
	 * @param leaseTime the value
	 */
	public void setLeaseTime(Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

	/**
	 * Return the value of {@code setnx.lock.wait-time}.
	 * @return the value
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * Set the value of {@code setnx.lock.wait-time}.
	 * @param waitTime the value
	 */
	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	/**
	 * Return the value of {@code setnx.lock.release-channel}.
	 * @return the value
	 */
	public String getReleaseChannel() {
		return this.releaseChannel;
	}

	/**
	 * Set the value of {@code setnx.lock.release-channel}.
	 * @param releaseChannel the value
	 */
	public void setReleaseChannel(String releaseChannel) {
		this.releaseChannel = releaseChannel;
	}

	/**
	 * Return the {@code setnx.lock.timestamp.*} settings.
	 * @return the settings
	 */
	public Timestamp getTimestamp() {
		return this.timestamp;
	}

	/**
	 * Return the {@code setnx.lock.renewal.*} settings.
	 * @return the settings
	 */
	public Renewal getRenewal() {
		return this.renewal;
	}

	/**
	 * Return the {@code setnx.lock.aspect.*} settings.
	 * @return the settings
	 */
	public Aspect getAspect() {
		return this.aspect;
	}

	/**
	 * Return the {@code setnx.lock.metrics.*} settings.
	 * @return the settings
	 */
	public Metrics getMetrics() {
		return this.metrics;
	}

	/**
	 * Return the {@code setnx.lock.endpoint.*} settings.
	 * @return the settings
	 */
	public Endpoint getEndpoint() {
		return this.endpoint;
	}

	/**
	 * Return the {@code setnx.lock.replication-guard.*} settings.
	 * @return the settings
	 */
	public ReplicationGuard getReplicationGuard() {
		return this.replicationGuard;
	}

	/**
	 * Return the {@code setnx.lock.local-handoff.*} settings.
	 * @return the settings
	 */
	public LocalHandoff getLocalHandoff() {
		return this.localHandoff;
	}

	/**
	 * Return the settings of Redlock.
	 * @return the settings
	 */
	public RedlockProperties getRedlock() {
		return this.redlock;
	}

	/**
	 * Return the settings of single locks, by the lock's name
	 * ({@code setnx.lock.locks.*}).
	 * @return the settings by lock name
	 */
	public Map<String, Lock> getLocks() {
		return this.locks;
	}

	/**
	 * Settings of the timestamp protocol.
	 */
	public static class Timestamp {

		/**
		 * Unit of the stored Unix timestamps: 'seconds', as in the SETNX documentation,
		 * or 'milliseconds'. Must match the other clients of the same keys.
		 */
		private TimestampUnit unit = TimestampUnit.SECONDS;

		/**
		 * Where "now" comes from: 'redis' (the server's TIME, one clock for every client)
		 * or 'local' (this JVM's clock, as clients of the documented pattern use theirs).
		 */
		private TimestampClock clock = TimestampClock.REDIS;

		/**
		 * Whether waiters also listen to the server's keyspace notifications for lock
		 * keys, so that a documented client's plain DEL wakes them at once. Needs
		 * notify-keyspace-events with 'K' and 'g' on the server.
		 */
		private boolean keyspaceNotifications;

		/**
		 * Return the value of {@code setnx.lock.timestamp.unit}.
		 * @return the value
		 */
		public TimestampUnit getUnit() {
			return this.unit;
		}

		/**
		 * Set the value of {@code setnx.lock.timestamp.unit}.
		 * @param unit the value
		 */
		public void setUnit(TimestampUnit unit) {
			this.unit = unit;
		}

		/**
		 * Return the value of {@code setnx.lock.timestamp.clock}.
		 * @return the value
		 */
		public TimestampClock getClock() {
			return this.clock;
		}

		/**
		 * Set the value of {@code setnx.lock.timestamp.clock}.
		 * @param clock the value
		 */
		public void setClock(TimestampClock clock) {
			this.clock = clock;
		}

		/**
		 * Return the value of {@code setnx.lock.timestamp.keyspace-notifications}.
		 * @return the value
		 */
		public boolean isKeyspaceNotifications() {
			return this.keyspaceNotifications;
		}

		/**
		 * Set the value of {@code setnx.lock.timestamp.keyspace-notifications}.
		 * @param keyspaceNotifications the value
		 */
		public void setKeyspaceNotifications(boolean keyspaceNotifications) {
			this.keyspaceNotifications = keyspaceNotifications;
		}

	}

	/**
	 * Settings of the lease renewal watchdog.
	 */
	public static class Renewal {

		/**
		 * Whether locks taken without a lease of their own are renewed every third of the
		 * lease while held, so a live holder keeps its lock however long it works.
		 */
		private boolean enabled = true;

		/**
		 * Longest time a renewed lock may be held: past it, renewals stop and the lock
		 * ends with its lease. No limit when unset.
		 */
		private Duration maxHold;

		/**
		 * Return the value of {@code setnx.lock.renewal.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Set the value of {@code setnx.lock.renewal.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Return the value of {@code setnx.lock.renewal.max-hold}.
		 * @return the value
		 */
		public Duration getMaxHold() {
			return this.maxHold;
		}

		/**
		 * Set the value of {@code setnx.lock.renewal.max-hold}.
		 * @param maxHold the value
		 */
		public void setMaxHold(Duration maxHold) {
			this.maxHold = maxHold;
		}

	}

	/**
	 * Settings of the replication guard, which makes an acquisition wait (WAIT) until
	 * replicas have it, so that a failover cannot silently hand the lock to a second
	 * holder.
	 */
	public static class ReplicationGuard {

		/**
		 * How many replicas must acknowledge an acquisition within the timeout; fewer,
		 * and the acquisition is released and fails. 0 turns the guard off. Not available
		 * on Redis Cluster.
		 */
		private int replicas;

		/**
		 * How long an acquisition waits for the replicas. WAIT holds up only the
		 * acquisition's own connection (a dedicated one, not Lettuce's shared connection)
		 * for up to this long; keep it well below the client's command timeout.
		 */
		private Duration timeout = Duration.ofSeconds(1);

		/**
		 * Return the value of {@code setnx.lock.replication-guard.replicas}.
		 * @return the value
		 */
		public int getReplicas() {
			return this.replicas;
		}

		/**
		 * Set the value of {@code setnx.lock.replication-guard.replicas}.
		 * @param replicas the value
		 */
		public void setReplicas(int replicas) {
			this.replicas = replicas;
		}

		/**
		 * Return the value of {@code setnx.lock.replication-guard.timeout}.
		 * @return the value
		 */
		public Duration getTimeout() {
			return this.timeout;
		}

		/**
		 * Set the value of {@code setnx.lock.replication-guard.timeout}.
		 * @param timeout the value
		 */
		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

	/**
	 * Settings of the local hand-off: a release while another thread of this application
	 * waits for the lock passes the Redis key to that thread without a round trip (token
	 * protocol).
	 */
	public static class LocalHandoff {

		/**
		 * Whether releases pass the lock to a waiting thread of this application without
		 * a round trip to Redis.
		 */
		private boolean enabled = true;

		/**
		 * How many hand-offs at most before a read of the key rules out a waiter of
		 * another application, and once one is known, before a release goes back through
		 * Redis.
		 */
		private int maxHandoffs = 2;

		/**
		 * How long hand-offs go on at most, once a waiter of another application is
		 * known, before a release goes back through Redis.
		 */
		private Duration maxTime = Duration.ofMillis(5);

		/**
		 * Return the value of {@code setnx.lock.local-handoff.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Set the value of {@code setnx.lock.local-handoff.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Return the value of {@code setnx.lock.local-handoff.max-handoffs}.
		 * @return the value
		 */
		public int getMaxHandoffs() {
			return this.maxHandoffs;
		}

		/**
		 * Set the value of {@code setnx.lock.local-handoff.max-handoffs}.
		 * @param maxHandoffs the value
		 */
		public void setMaxHandoffs(int maxHandoffs) {
			this.maxHandoffs = maxHandoffs;
		}

		/**
		 * Return the value of {@code setnx.lock.local-handoff.max-time}.
		 * @return the value
		 */
		public Duration getMaxTime() {
			return this.maxTime;
		}

		/**
		 * Set the value of {@code setnx.lock.local-handoff.max-time}.
		 * @param maxTime the value
		 */
		public void setMaxTime(Duration maxTime) {
			this.maxTime = maxTime;
		}

	}

	/**
	 * Settings of the actuator 'locks' endpoint.
	 */
	public static class Endpoint {

		private final ForceRelease forceRelease = new ForceRelease();

		/**
		 * Return the {@code setnx.lock.endpoint.force-release.*} settings.
		 * @return the settings
		 */
		public ForceRelease getForceRelease() {
			return this.forceRelease;
		}

		/**
		 * Settings of the endpoint's force-release operation.
		 */
		public static class ForceRelease {

			/**
			 * Whether the 'locks' endpoint offers its delete operation, which releases
			 * any lock whoever holds it, by making the endpoint's default access
			 * unrestricted. Secure the endpoint before turning it on.
			 */
			private boolean enabled;

			/**
			 * Return the value of {@code setnx.lock.endpoint.force-release.enabled}.
			 * @return the value
			 */
			@DeprecatedConfigurationProperty(replacement = "management.endpoint.locks.access",
					reason = "Spring Boot's endpoint access governs the force-release operation", since = "0.1.0")
			public boolean isEnabled() {
				return this.enabled;
			}

			/**
			 * Set the value of {@code setnx.lock.endpoint.force-release.enabled}.
			 * @param enabled the value
			 */
			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

		}

	}

	/**
	 * Settings of the lock meters.
	 */
	public static class Metrics {

		/**
		 * Whether to record lock meters (setnx.lock.*) when Micrometer is present.
		 */
		private boolean enabled = true;

		/**
		 * Return the value of {@code setnx.lock.metrics.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Set the value of {@code setnx.lock.metrics.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Settings of the @DistributedLock advice.
	 */
	public static class Aspect {

		/**
		 * Whether to run @DistributedLock methods under their locks.
		 */
		private boolean enabled = true;

		/**
		 * Order of the @DistributedLock advice among other advice; the default puts it
		 * outside @Transactional of the default order.
		 */
		private int order = io.github.setnxlock.annotation.DistributedLockAdvisor.DEFAULT_ORDER;

		/**
		 * Return the value of {@code setnx.lock.aspect.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Set the value of {@code setnx.lock.aspect.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Return the value of {@code setnx.lock.aspect.order}.
		 * @return the value
		 */
		public int getOrder() {
			return this.order;
		}

		/**
		 * Set the value of {@code setnx.lock.aspect.order}.
		 * @param order the value
		 */
		public void setOrder(int order) {
			this.order = order;
		}

	}

	/**
	 * Settings of one lock.
	 */
	public static class Lock {

		/**
		 * How long calls wait for this lock; overrides the annotation's waitTime.
		 */
		private Duration waitTime;

		/**
		 * Lease of this lock's holds; overrides the annotation's leaseTime.
		 */
		private Duration leaseTime;

		/**
		 * Return the value of {@code setnx.lock.locks[name].wait-time}.
		 * @return the value
		 */
		public Duration getWaitTime() {
			return this.waitTime;
		}

		/**
		 * Set the value of {@code setnx.lock.locks[name].wait-time}.
		 * @param waitTime the value
		 */
		public void setWaitTime(Duration waitTime) {
			this.waitTime = waitTime;
		}

		/**
		 * Return the value of {@code setnx.lock.locks[name].lease-time}.
		 * @return the value
		 */
		public Duration getLeaseTime() {
			return this.leaseTime;
		}

		/**
		 * Set the value of {@code setnx.lock.locks[name].lease-time}.
		 * @param leaseTime the value
		 */
		public void setLeaseTime(Duration leaseTime) {
			this.leaseTime = leaseTime;
		}

	}

}
