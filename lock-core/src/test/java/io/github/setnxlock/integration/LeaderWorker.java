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
package io.github.setnxlock.integration;

import java.time.Duration;
import java.util.UUID;

import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.LeaderEventPublisher;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * One application of {@link LeaderElectionAcrossProcessesTests}: a
 * {@link LockRegistryLeaderInitiator} for a role on a
 * {@link SetnxIntegrationLockRegistry}, printing {@code READY}, then {@code GRANTED} and
 * {@code REVOKED} as its leadership changes, until it is killed. Arguments:
 * {@code port=}, {@code role=}, {@code leaseMs=}.
 *
 * @author setnx-lock authors
 */
public final class LeaderWorker {

	private LeaderWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(argument(args, "port"));
		String role = argument(args, "role");
		Duration lease = Duration.ofMillis(Long.parseLong(argument(args, "leaseMs")));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate template = new StringRedisTemplate(factory);
		SetnxLockRegistry registry = new SetnxLockRegistry(template,
				SetnxLockSettings.builder().leaseTime(lease).build());
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(
				new SetnxIntegrationLockRegistry(registry), new DefaultCandidate(UUID.randomUUID().toString(), role));
		initiator.setHeartBeatMillis(100);
		initiator.setBusyWaitMillis(20);
		initiator.setLeaderEventPublisher(new LeaderEventPublisher() {

			@Override
			public void publishOnGranted(Object source, Context context, String role) {
				say("GRANTED");
			}

			@Override
			public void publishOnRevoked(Object source, Context context, String role) {
				say("REVOKED");
			}

			@Override
			public void publishOnFailedToAcquire(Object source, Context context, String role) {
			}

		});
		// Connected before it competes, so that a slow first connection is no part of it.
		template.hasKey("warm-up");
		initiator.start();
		say("READY");
		Thread.sleep(Long.MAX_VALUE);
	}

	private static synchronized void say(String line) {
		System.out.println(line);
		System.out.flush();
	}

	private static String argument(String[] args, String name) {
		for (String arg : args) {
			if (arg.startsWith(name + "=")) {
				return arg.substring(name.length() + 1);
			}
		}
		throw new IllegalArgumentException("Missing argument " + name + "=");
	}

}
