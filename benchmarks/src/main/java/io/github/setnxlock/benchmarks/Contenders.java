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

package io.github.setnxlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.github.setnxlock.redis.LockProtocol;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * The contenders the benchmark knows, each built on its own connections to one server
 * (the Redlock ones to 3 or 5 servers), with the settings a user gets by default unless
 * its name says otherwise.
 *
 * @author setnx-lock authors
 */
public final class Contenders {

	/**
	 * Name of the hand-written two-round-trip floor every ratio is taken against.
	 */
	public static final String FLOOR = "raw SET NX PX + EVALSHA";

	/**
	 * Name of setnx-lock's token protocol held to its release script on a server with a
	 * compare-and-delete of its own ({@code DELIFEQ} or {@code DELEX}), for the
	 * difference the native release makes in the same run.
	 */
	public static final String SCRIPT_RELEASE = "setnx-lock token (script release)";

	static final Duration LEASE = Duration.ofSeconds(30);

	// Between attempts of the contenders that only try once; short, so that a contended
	// run measures the lock rather than this pause.
	static final long RETRY_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	private Contenders() {
	}

	/**
	 * Return the names of every contender, in the order of the first round; a run
	 * connects only those that apply to its servers ({@link #SCRIPT_RELEASE} needs
	 * {@code DELIFEQ} or {@code DELEX}, the Redlock ones 3 or 5 servers).
	 * @return the names
	 */
	public static List<String> names() {
		return factories().stream().map(Factory::name).toList();
	}

	/**
	 * Connect the selected contenders to one server, under keys of their own.
	 * @param host the server's host
	 * @param port the server's port
	 * @param filters parts of names, case-insensitive; none for all
	 * @return the connected contenders, in the order of {@link #names()}
	 */
	public static List<Contender> connect(String host, int port, List<String> filters) {
		return connect(host, port, filters, Long.toHexString(System.nanoTime()));
	}

	/**
	 * Connect the selected contenders to one server, under keys in the given namespace.
	 * @param host the server's host
	 * @param port the server's port
	 * @param filters parts of names, case-insensitive; none for all
	 * @param namespace part of every key
	 * @return the connected contenders, in the order of {@link #names()}
	 */
	public static List<Contender> connect(String host, int port, List<String> filters, String namespace) {
		return connect(host, List.of(port), filters, namespace);
	}

	/**
	 * Connect every contender whose name contains one of the given filters (all of them
	 * when there is none) and that has enough servers, under keys in the given namespace:
	 * the single-server contenders on the first port, the Redlock ones on the first 3 or
	 * 5.
	 * @param host the servers' host
	 * @param ports the servers' ports, the main server's first
	 * @param filters parts of names, case-insensitive
	 * @param namespace part of every key
	 * @return the connected contenders, in the order of {@link #names()}
	 */
	public static List<Contender> connect(String host, List<Integer> ports, List<String> filters, String namespace) {
		List<Contender> contenders = new ArrayList<>();
		try {
			List<Factory> factories = factories();
			for (int i = 0; i < factories.size(); i++) {
				Factory factory = factories.get(i);
				if (selected(factory, filters)) {
					// the index keeps apart contenders that share a key prefix, such as
					// the two protocols of setnx-lock
					Contender contender = factory.create()
						.apply(new Server(host, List.copyOf(ports), namespace + ":" + i));
					if (contender != null) {
						contenders.add(contender);
					}
				}
			}
			return contenders;
		}
		catch (RuntimeException ex) {
			contenders.forEach(Contender::close);
			throw ex;
		}
	}

	/**
	 * Return how many servers the contenders whose names contain one of the given filters
	 * (all of them when there is none) need: 1, or as many as the largest Redlock among
	 * them.
	 * @param filters parts of names, case-insensitive
	 * @return the number of servers
	 */
	public static int serversNeeded(List<String> filters) {
		return factories().stream()
			.filter((factory) -> selected(factory, filters))
			.mapToInt(Factory::nodes)
			.max()
			.orElse(1);
	}

	private static boolean selected(Factory factory, List<String> filters) {
		return filters.isEmpty()
				|| filters.stream().anyMatch((filter) -> factory.name().toLowerCase().contains(filter.toLowerCase()));
	}

	private static List<Factory> factories() {
		return List.of(
				new Factory(SetnxLockContenders.name(LockProtocol.TOKEN),
						(server) -> SetnxLockContenders.create(server, LockProtocol.TOKEN)),
				new Factory(SCRIPT_RELEASE, SetnxLockContenders::scriptReleaseWhereNativeIs),
				new Factory(SetnxLockContenders.name(LockProtocol.TIMESTAMP),
						(server) -> SetnxLockContenders.create(server, LockProtocol.TIMESTAMP)),
				new Factory(AsyncContenders.SETNX_LOCK_ASYNC, AsyncContenders.SetnxLockAsync::new),
				new Factory(FLOOR, RawContenders.Floor::new), new Factory(RawContenders.PING, RawContenders.Ping::new),
				new Factory(SpringIntegrationContenders.name(RedisLockType.SPIN_LOCK),
						(server) -> SpringIntegrationContenders.create(server, RedisLockType.SPIN_LOCK)),
				new Factory(SpringIntegrationContenders.name(RedisLockType.PUB_SUB_LOCK),
						(server) -> SpringIntegrationContenders.create(server, RedisLockType.PUB_SUB_LOCK)),
				new Factory(RedissonContender.name(false), (server) -> new RedissonContender(server, false)),
				new Factory(RedissonContender.name(true), (server) -> new RedissonContender(server, true)),
				new Factory(AsyncContenders.REDISSON_ASYNC, AsyncContenders.RedissonAsync::new),
				new Factory(ShedLockContender.name(false), (server) -> new ShedLockContender(server, false)),
				new Factory(ShedLockContender.name(true), (server) -> new ShedLockContender(server, true)),
				redlock(RedlockContenders.setnxLockName(RedlockContenders.SMALL), RedlockContenders.SMALL,
						RedlockContenders.SetnxLockRedlock::on),
				redlock(RedlockContenders.setnxLockName(RedlockContenders.LARGE), RedlockContenders.LARGE,
						RedlockContenders.SetnxLockRedlock::on),
				redlock(RedlockContenders.redissonName(RedlockContenders.SMALL), RedlockContenders.SMALL,
						RedlockContenders.RedissonRedlock::on),
				redlock(RedlockContenders.redissonName(RedlockContenders.LARGE), RedlockContenders.LARGE,
						RedlockContenders.RedissonRedlock::on));
	}

	private static Factory redlock(String name, int nodes, BiFunction<Server, Integer, Contender> create) {
		return new Factory(name, nodes, (server) -> create.apply(server, nodes));
	}

	/**
	 * Where a contender connects: the benchmark's servers on one host, the main one
	 * first, and the namespace of its keys.
	 */
	record Server(String host, List<Integer> ports, String namespace) {

		int port() {
			return this.ports.get(0);
		}

		String unique(String prefix) {
			return prefix + ":" + this.namespace;
		}

		LettuceConnectionFactory nodeConnectionFactory(int node) {
			return connectionFactory(new RedisStandaloneConfiguration(this.host, this.ports.get(node)));
		}

		LettuceConnectionFactory connectionFactory() {
			return connectionFactory(new RedisStandaloneConfiguration(this.host, port()));
		}

		LettuceConnectionFactory connectionFactory(RedisStandaloneConfiguration configuration) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
			factory.afterPropertiesSet();
			factory.start();
			return factory;
		}

	}

	/**
	 * Makes a contender on the servers, or {@code null} for one that does not apply to
	 * them; it needs the first {@code nodes} of them.
	 */
	private record Factory(String name, int nodes, Function<Server, Contender> create) {

		Factory(String name, Function<Server, Contender> create) {
			this(name, 1, create);
		}

	}

}
