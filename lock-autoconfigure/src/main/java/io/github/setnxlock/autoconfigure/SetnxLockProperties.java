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
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import io.github.setnxlock.redis.LockProtocol;

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

	/**
	 * Whether the owner tokens written to Redis name who holds each lock (the
	 * application's spring.application.name, host, process id and thread), for operators
	 * who read them with redis-cli or the locks endpoint. Turn it off where host or
	 * thread names are not to be stored in Redis.
	 */
	private boolean holderIdentity = true;

	@NestedConfigurationProperty
	private final TimestampProperties timestamp = new TimestampProperties();

	@NestedConfigurationProperty
	private final RenewalProperties renewal = new RenewalProperties();

	@NestedConfigurationProperty
	private final AspectProperties aspect = new AspectProperties();

	@NestedConfigurationProperty
	private final MetricsProperties metrics = new MetricsProperties();

	@NestedConfigurationProperty
	private final EndpointProperties endpoint = new EndpointProperties();

	@NestedConfigurationProperty
	private final ReplicationGuardProperties replicationGuard = new ReplicationGuardProperties();

	@NestedConfigurationProperty
	private final LocalHandoffProperties localHandoff = new LocalHandoffProperties();

	@NestedConfigurationProperty
	private final RedlockProperties redlock = new RedlockProperties();

	/**
	 * Settings of single locks, by the lock's name (the @DistributedLock name, by default
	 * 'SimpleClassName.methodName'; in brackets when it has dots, such as
	 * 'locks[Orders.place].wait-time'). Each takes 'wait-time' and 'lease-time', which
	 * take precedence over the annotation.
	 */
	private final Map<String, LockProperties> locks = new LinkedHashMap<>();

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
	 * Return the value of {@code setnx.lock.holder-identity}.
	 * @return the value
	 */
	public boolean isHolderIdentity() {
		return this.holderIdentity;
	}

	/**
	 * Set the value of {@code setnx.lock.holder-identity}.
	 * @param holderIdentity the value
	 */
	public void setHolderIdentity(boolean holderIdentity) {
		this.holderIdentity = holderIdentity;
	}

	/**
	 * Return the {@code setnx.lock.timestamp.*} settings.
	 * @return the settings
	 */
	public TimestampProperties getTimestamp() {
		return this.timestamp;
	}

	/**
	 * Return the {@code setnx.lock.renewal.*} settings.
	 * @return the settings
	 */
	public RenewalProperties getRenewal() {
		return this.renewal;
	}

	/**
	 * Return the {@code setnx.lock.aspect.*} settings.
	 * @return the settings
	 */
	public AspectProperties getAspect() {
		return this.aspect;
	}

	/**
	 * Return the {@code setnx.lock.metrics.*} settings.
	 * @return the settings
	 */
	public MetricsProperties getMetrics() {
		return this.metrics;
	}

	/**
	 * Return the {@code setnx.lock.endpoint.*} settings.
	 * @return the settings
	 */
	public EndpointProperties getEndpoint() {
		return this.endpoint;
	}

	/**
	 * Return the {@code setnx.lock.replication-guard.*} settings.
	 * @return the settings
	 */
	public ReplicationGuardProperties getReplicationGuard() {
		return this.replicationGuard;
	}

	/**
	 * Return the {@code setnx.lock.local-handoff.*} settings.
	 * @return the settings
	 */
	public LocalHandoffProperties getLocalHandoff() {
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
	public Map<String, LockProperties> getLocks() {
		return this.locks;
	}

}
