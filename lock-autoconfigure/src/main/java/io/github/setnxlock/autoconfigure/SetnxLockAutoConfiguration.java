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
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LeaseLimits;
import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.annotation.LockTimings;
import io.github.setnxlock.observation.LockHoldObservationConvention;
import io.github.setnxlock.observation.LockWaitObservationConvention;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.LocalHandoffSettings;
import io.github.setnxlock.redis.SetnxLockSettings;
import io.github.setnxlock.redis.operator.LockOperations;

/**
 * Auto-configures a {@link SetnxLockRegistry} on the application's
 * {@link RedisConnectionFactory}, and the {@link LockTimings} of {@code @DistributedLock}
 * methods, from {@link SetnxLockProperties}. The registry reports to every
 * {@link LockListener} bean, and publishes each lost lock as a
 * {@link io.github.setnxlock.LockLostEvent} application event for {@code @EventListener}
 * methods; with an {@link ObservationRegistry}, waits for locks and holds are observed,
 * named and tagged by the application's {@link LockWaitObservationConvention} and
 * {@link LockHoldObservationConvention} beans (a single or primary bean of each type).
 * Nothing here waits for Redis: the registry starts connecting and loading its scripts in
 * the background when it is made, so the first lock call of a started application finds
 * them ready and the application starts while Redis is down; invalid settings fail
 * start-up with the name of the property, and settings that are probably mistaken (an
 * unknown name, a duration without a unit, a lease under a second) are warned of (see
 * {@link SetnxLockPropertiesCheck}).
 *
 * @author setnx-lock authors
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnBooleanProperty(name = "setnx.lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SetnxLockProperties.class)
@Import(RedlockRegistryConfiguration.class)
public final class SetnxLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockRegistry.class)
	@ConditionalOnBean(RedisConnectionFactory.class)
	@Conditional(RedlockNodesCondition.NotSet.class)
	SetnxLockRegistry setnxLockRegistry(RedisConnectionFactory connectionFactory, SetnxLockProperties properties,
			ObjectProvider<LockListener> listeners, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockWaitObservationConvention> waitConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention, Environment environment) {
		SetnxLockSettings settings = named(settings(properties), environment);
		CommandTimeoutCheck.warnIfNotShorter(connectionFactory, settings.leaseTime());
		SetnxLockRegistry registry = new SetnxLockRegistry(new StringRedisTemplate(connectionFactory), settings,
				listeners.orderedStream().toList());
		return observed(registry, observationRegistry, waitConvention, holdConvention);
	}

	static SetnxLockRegistry observed(SetnxLockRegistry registry,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockWaitObservationConvention> waitConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		observationRegistry.ifAvailable(registry::setObservationRegistry);
		waitConvention.ifUnique(registry::setWaitObservationConvention);
		holdConvention.ifUnique(registry::setHoldObservationConvention);
		return registry;
	}

	/**
	 * The operator API that the {@code locks} endpoint and the health indicator use: the
	 * registry's own when it is a {@link SetnxLockRegistry}, else one that works from
	 * Redis alone on the same keys (it lists no local holds).
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(RedisConnectionFactory.class)
	@Conditional(RedlockNodesCondition.NotSet.class)
	LockOperations setnxLockOperations(ObjectProvider<LockRegistry> registry, RedisConnectionFactory connectionFactory,
			SetnxLockProperties properties) {
		if (registry.getIfUnique() instanceof SetnxLockRegistry setnx) {
			return setnx.operations();
		}
		return SetnxLockRegistry.operationsOn(new StringRedisTemplate(connectionFactory), settings(properties));
	}

	@Bean
	@ConditionalOnMissingBean
	ApplicationEventLockListener setnxLockApplicationEventListener(ApplicationEventPublisher publisher) {
		return new ApplicationEventLockListener(publisher);
	}

	@Bean
	SetnxLockPropertiesCheck setnxLockPropertiesCheck(SetnxLockProperties properties, Environment environment) {
		return new SetnxLockPropertiesCheck(properties, environment);
	}

	@Bean
	@ConditionalOnMissingBean
	LockTimings setnxLockTimings(SetnxLockProperties properties) {
		checkWait("setnx.lock.wait-time", properties.getWaitTime());
		for (Map.Entry<String, LockProperties> lock : properties.getLocks().entrySet()) {
			String prefix = "setnx.lock.locks." + lock.getKey();
			if (lock.getValue().getWaitTime() != null) {
				checkWait(prefix + ".wait-time", lock.getValue().getWaitTime());
			}
			if (lock.getValue().getLeaseTime() != null) {
				checkLease(prefix + ".lease-time", lock.getValue().getLeaseTime());
			}
		}
		return new PropertiesLockTimings(properties.getWaitTime(), properties.getLocks());
	}

	/**
	 * Give the settings the application's name, for the holder that owner tokens name.
	 */
	static SetnxLockSettings named(SetnxLockSettings settings, Environment environment) {
		return settings.toBuilder().applicationName(environment.getProperty("spring.application.name")).build();
	}

	static SetnxLockSettings settings(SetnxLockProperties properties) {
		if (properties.getKeyPrefix() == null) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.key-prefix", null,
					"The key prefix must not be null; use an empty value for no prefix.");
		}
		if (properties.getReleaseChannel() == null || properties.getReleaseChannel().isBlank()) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.release-channel",
					properties.getReleaseChannel(), "The release channel must not be blank.");
		}
		checkLease("setnx.lock.lease-time", properties.getLeaseTime());
		if (properties.getRenewal().getMaxHold() != null) {
			checkLease("setnx.lock.renewal.max-hold", properties.getRenewal().getMaxHold());
		}
		ReplicationGuardProperties guard = properties.getReplicationGuard();
		if (guard.getReplicas() < 0) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.replication-guard.replicas",
					guard.getReplicas(), "The number of replicas must not be negative; 0 turns the guard off.");
		}
		if (guard.getTimeout() == null || guard.getTimeout().isNegative() || guard.getTimeout().toMillis() < 1) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.replication-guard.timeout",
					guard.getTimeout(), "The timeout must be at least 1ms (WAIT with 0 would wait forever).");
		}
		LocalHandoffProperties handoff = properties.getLocalHandoff();
		if (handoff.getMaxHandoffs() < 1) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.local-handoff.max-handoffs",
					handoff.getMaxHandoffs(), "At least 1; set setnx.lock.local-handoff.enabled=false to turn it off.");
		}
		if (handoff.getMaxTime() == null || handoff.getMaxTime().isNegative() || handoff.getMaxTime().isZero()) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.local-handoff.max-time",
					handoff.getMaxTime(),
					"Must be positive; set setnx.lock.local-handoff.enabled=false to turn it off.");
		}
		Duration nodeTimeout = properties.getRedlock().getNodeTimeout();
		if (nodeTimeout == null || nodeTimeout.isNegative() || nodeTimeout.toMillis() < 1
				|| nodeTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.redlock.node-timeout", nodeTimeout,
					"Must be at least 1ms and at most 1 minute.");
		}
		return SetnxLockSettings.builder()
			.keyPrefix(properties.getKeyPrefix())
			.protocol(properties.getProtocol())
			.leaseTime(properties.getLeaseTime())
			.timestampUnit(properties.getTimestamp().getUnit())
			.timestampClock(properties.getTimestamp().getClock())
			.keyspaceNotifications(properties.getTimestamp().isKeyspaceNotifications())
			.releaseChannel(properties.getReleaseChannel())
			.renewal(properties.getRenewal().isEnabled())
			.maxHold(properties.getRenewal().getMaxHold())
			.replicationGuard(guard.getReplicas(), guard.getTimeout())
			.localHandoff(new LocalHandoffSettings(handoff.isEnabled(), handoff.getMaxHandoffs(), handoff.getMaxTime()))
			.nodeTimeout(nodeTimeout)
			.restartDelay(restartDelay(properties.getRedlock().getRestartDelay()))
			.holderIdentity(properties.isHolderIdentity())
			.build();
	}

	private static Duration restartDelay(Duration delay) {
		if (delay != null && (delay.isNegative() || (!delay.isZero() && delay.toMillis() < 1))) {
			throw new InvalidConfigurationPropertyValueException("setnx.lock.redlock.restart-delay", delay,
					"Must be 0 (no check) or at least 1ms.");
		}
		if (delay != null && !delay.isZero()) {
			checkLease("setnx.lock.redlock.restart-delay", delay);
		}
		return delay;
	}

	private static void checkLease(String property, Duration lease) {
		if (lease == null || lease.isNegative() || lease.toMillis() < 1) {
			throw new InvalidConfigurationPropertyValueException(property, lease, "A lease must be at least 1ms long.");
		}
		try {
			LeaseLimits.check("leaseTime", lease);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, lease, ex.getMessage());
		}
	}

	private static void checkWait(String property, Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(property, wait, "A wait must be zero or positive.");
		}
	}

}
