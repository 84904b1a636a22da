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
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.redis.engine.LockEngine;
import io.github.setnxlock.redis.protocol.OwnerTokens;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisCall;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.redis.operator.LockOperations;
import io.github.setnxlock.redis.protocol.LockCommands;
import io.github.setnxlock.redis.protocol.ReplicationGuard;
import io.github.setnxlock.redis.redlock.QuorumReleaseMessages;
import io.github.setnxlock.redis.redlock.RedlockCommands;
import io.github.setnxlock.redis.timestamp.TimestampLockCommands;
import io.github.setnxlock.redis.token.TokenLockCommands;

/**
 * The parts of a {@link SetnxLockRegistry}, wired in one place for every topology: the
 * gateways (one per Redis, or per Redlock node), the protocol on them, the engine on the
 * protocol, and the operator API. A single Redis (also behind Sentinel or as a Cluster,
 * which Spring Data Redis hides) and a set of Redlock nodes differ only in how many
 * gateways there are and which protocol and release messages go on them.
 *
 * @param gateways the gateways, closed with the registry
 * @param nodeNames the Redlock nodes' names; empty on a single Redis
 * @param engine the engine
 * @param operations the operator API
 * @param warmUp the background connection and script load of a single Redis; done at once
 * under Redlock, whose nodes are judged by the quorum
 * @author setnx-lock authors
 */
record RegistryWiring(List<RedisGateway> gateways, List<String> nodeNames, LockEngine engine, LockOperations operations,
		CompletableFuture<?> warmUp) {

	/**
	 * How long a fencing counter outlives the last acquisition of its lock. Tokens keep
	 * increasing after the counter is gone (see
	 * {@link io.github.setnxlock.LeasedLock#fencingToken()}), so one-off keys do not
	 * leave counters behind forever.
	 */
	static final Duration FENCE_RETENTION = Duration.ofHours(1);

	/** The registry's, where users look for its messages. */
	private static final Log logger = LogFactory.getLog(SetnxLockRegistry.class);

	/**
	 * Wire a registry on one Redis.
	 */
	static RegistryWiring single(StringRedisTemplate redis, SetnxLockSettings settings, List<LockListener> listeners) {
		Protocol protocol = Protocol.of(settings);
		RedisGateway gateway = new RedisGateway(redis, protocol.scripts());
		LockCommands commands = protocol.commands().apply(gateway);
		if (settings.replicationGuardReplicas() > 0) {
			commands = new ReplicationGuard(commands, settings.replicationGuardReplicas(),
					settings.replicationGuardTimeout());
		}
		LockEngine engine = new LockEngine(commands, gateway, engineSettings(settings, protocol.name()), listeners);
		LockOperations operations = new LockOperations(gateway, settings.keyPrefix(), protocol.name(),
				settings.releaseChannel(), FENCE_RETENTION, engine);
		return new RegistryWiring(List.of(gateway), List.of(), engine, operations, warmUp(gateway));
	}

	/**
	 * Wire a Redlock registry on independent nodes, each with a gateway of its own.
	 */
	static RegistryWiring redlock(List<RedlockNode> nodes, SetnxLockSettings settings, List<LockListener> listeners) {
		RedlockNode.check(nodes, settings);
		List<String> names = nodes.stream().map(RedlockNode::name).toList();
		List<LockScript> scripts = Stream.concat(RedlockCommands.NODE_SCRIPTS.stream(), LockOperations.SCRIPTS.stream())
			.toList();
		List<RedisGateway> gateways = nodes.stream().map((node) -> new RedisGateway(node.redis(), scripts)).toList();
		RedlockCommands commands = new RedlockCommands(names, gateways, settings.nodeTimeout(), settings.restartDelay(),
				FENCE_RETENTION, settings.releaseChannel());
		LockEngine.Settings engineSettings = engineSettings(settings,
				SetnxLockRegistry.protocolName(settings.protocol(), true));
		LockEngine engine = new LockEngine(commands, (listener) -> new QuorumReleaseMessages(gateways,
				engineSettings.releaseChannel(), engineSettings.keyspacePattern(), listener), engineSettings,
				listeners);
		commands.onNodeFailure(engine::nodeFailed);
		LockOperations operations = new LockOperations(names, gateways, settings.keyPrefix(), engineSettings.protocol(),
				settings.releaseChannel(), FENCE_RETENTION, engine);
		return new RegistryWiring(gateways, names, engine, operations, CompletableFuture.completedFuture(null));
	}

	/**
	 * Wire the operator API alone, for an application whose registry is another one.
	 */
	static LockOperations operationsOn(StringRedisTemplate redis, SetnxLockSettings settings) {
		Protocol protocol = Protocol.of(settings);
		return new LockOperations(new RedisGateway(redis, protocol.scripts()), settings.keyPrefix(), protocol.name(),
				settings.releaseChannel(), FENCE_RETENTION, null);
	}

	/**
	 * Stop the engine's threads, then the gateways'.
	 */
	void close() {
		this.engine.close();
		this.gateways.forEach(RedisGateway::close);
	}

	/**
	 * Connect and load the scripts in the background, so that the first lock call finds
	 * them ready; a Redis that is down is the first call's to report.
	 */
	private static CompletableFuture<?> warmUp(RedisGateway gateway) {
		return gateway.warmUp().handle((scripts, failure) -> {
			if (failure != null && logger.isDebugEnabled()) {
				logger.debug("Could not connect to Redis and load the lock scripts in the background: "
						+ RedisCall.describe(failure));
			}
			return null;
		});
	}

	private static LockEngine.Settings engineSettings(SetnxLockSettings settings, String protocolName) {
		return new LockEngine.Settings(settings.leaseTime(), settings.renewal(), settings.maxHold(),
				settings.releaseChannel(),
				settings.keyspaceNotifications() ? ReleaseMessages.keyspacePattern(settings.keyPrefix()) : null,
				protocolName, settings.localHandoff().enabled(), settings.localHandoff().maxHandoffs(),
				settings.localHandoff().maxTime(),
				settings.holderIdentity() ? OwnerTokens.processPrefix(settings.applicationName()) : null);
	}

	/**
	 * A single-server protocol as the settings choose it, once: its name, the scripts a
	 * gateway loads for it (the operator's with them), and its commands on a gateway.
	 */
	private record Protocol(String name, List<LockScript> scripts, Function<RedisGateway, LockCommands> commands) {

		static Protocol of(SetnxLockSettings settings) {
			String name = SetnxLockRegistry.protocolName(settings.protocol(), false);
			return switch (settings.protocol()) {
				case TOKEN -> new Protocol(name, withOperators(TokenLockCommands.SCRIPTS),
						(gateway) -> new TokenLockCommands(gateway, FENCE_RETENTION, settings.releaseChannel()));
				case TIMESTAMP -> new Protocol(name, withOperators(TimestampLockCommands.SCRIPTS),
						(gateway) -> new TimestampLockCommands(gateway, FENCE_RETENTION,
								Duration.ofMillis(settings.timestampUnit().toMillis()),
								(settings.timestampClock() == TimestampClock.LOCAL) ? settings.localClock() : null,
								settings.releaseChannel()));
			};
		}

		private static List<LockScript> withOperators(List<LockScript> scripts) {
			return Stream.concat(scripts.stream(), LockOperations.SCRIPTS.stream()).toList();
		}

	}

}
