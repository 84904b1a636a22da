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

	/**
	 * Settings of single locks, by the lock's name (the @DistributedLock name, by default
	 * 'SimpleClassName.methodName'; in brackets when it has dots, such as
	 * 'locks[Orders.place].wait-time'). Each takes 'wait-time' and 'lease-time', which
	 * take precedence over the annotation.
	 */
	private final Map<String, Lock> locks = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public LockProtocol getProtocol() {
		return this.protocol;
	}

	public void setProtocol(LockProtocol protocol) {
		this.protocol = protocol;
	}

	public Duration getLeaseTime() {
		return this.leaseTime;
	}

	public void setLeaseTime(Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	public String getReleaseChannel() {
		return this.releaseChannel;
	}

	public void setReleaseChannel(String releaseChannel) {
		this.releaseChannel = releaseChannel;
	}

	public Timestamp getTimestamp() {
		return this.timestamp;
	}

	public Renewal getRenewal() {
		return this.renewal;
	}

	public Aspect getAspect() {
		return this.aspect;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Endpoint getEndpoint() {
		return this.endpoint;
	}

	public ReplicationGuard getReplicationGuard() {
		return this.replicationGuard;
	}

	public LocalHandoff getLocalHandoff() {
		return this.localHandoff;
	}

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

		public TimestampUnit getUnit() {
			return this.unit;
		}

		public void setUnit(TimestampUnit unit) {
			this.unit = unit;
		}

		public TimestampClock getClock() {
			return this.clock;
		}

		public void setClock(TimestampClock clock) {
			this.clock = clock;
		}

		public boolean isKeyspaceNotifications() {
			return this.keyspaceNotifications;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getMaxHold() {
			return this.maxHold;
		}

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

		public int getReplicas() {
			return this.replicas;
		}

		public void setReplicas(int replicas) {
			this.replicas = replicas;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxHandoffs() {
			return this.maxHandoffs;
		}

		public void setMaxHandoffs(int maxHandoffs) {
			this.maxHandoffs = maxHandoffs;
		}

		public Duration getMaxTime() {
			return this.maxTime;
		}

		public void setMaxTime(Duration maxTime) {
			this.maxTime = maxTime;
		}

	}

	/**
	 * Settings of the actuator 'locks' endpoint.
	 */
	public static class Endpoint {

		private final ForceRelease forceRelease = new ForceRelease();

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

			@DeprecatedConfigurationProperty(replacement = "management.endpoint.locks.access",
					reason = "Spring Boot's endpoint access governs the force-release operation", since = "0.1.0")
			public boolean isEnabled() {
				return this.enabled;
			}

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

		public boolean isEnabled() {
			return this.enabled;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getOrder() {
			return this.order;
		}

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

		public Duration getWaitTime() {
			return this.waitTime;
		}

		public void setWaitTime(Duration waitTime) {
			this.waitTime = waitTime;
		}

		public Duration getLeaseTime() {
			return this.leaseTime;
		}

		public void setLeaseTime(Duration leaseTime) {
			this.leaseTime = leaseTime;
		}

	}

}
