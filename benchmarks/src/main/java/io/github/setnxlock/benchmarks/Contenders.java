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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;
import org.springframework.integration.support.locks.DistributedLock;

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

	private static final Duration LEASE = Duration.ofSeconds(30);

	// Between attempts of the contenders that only try once; short, so that a contended
	// run later measures the lock rather than this pause.
	private static final long RETRY_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

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
	 * Connect every contender whose name contains one of the given filters (all of them
	 * when there is none).
	 * @param host the server's host
	 * @param port the server's port
	 * @param filters parts of names, case-insensitive
	 * @return the connected contenders, in the order of {@link #names()}
	 */
	public static List<Contender> connect(String host, int port, List<String> filters) {
		return connect(host, port, filters, Long.toHexString(System.nanoTime()));
	}

	/**
	 * Connect every contender whose name contains one of the given filters (all of them
	 * when there is none), under keys in the given namespace: a second JVM connected with
	 * the same namespace contends for the same keys.
	 * @param host the server's host
	 * @param port the server's port
	 * @param filters parts of names, case-insensitive
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
		return List.of(new Factory("setnx-lock token", (server) -> new SetnxLock(server, LockProtocol.TOKEN)),
				new Factory(SCRIPT_RELEASE, SetnxLock::scriptReleaseWhereNativeIs),
				new Factory("setnx-lock timestamp", (server) -> new SetnxLock(server, LockProtocol.TIMESTAMP)),
				new Factory(AsyncContenders.SETNX_LOCK_ASYNC, AsyncContenders.SetnxLockAsync::new),
				new Factory(FLOOR, RawFloor::new), new Factory("PING round trip", Ping::new),
				new Factory("Spring Integration spin",
						(server) -> new SpringIntegration(server, RedisLockType.SPIN_LOCK)),
				new Factory("Spring Integration pub/sub",
						(server) -> new SpringIntegration(server, RedisLockType.PUB_SUB_LOCK)),
				new Factory("Redisson watchdog", (server) -> new RedissonLock(server, false)),
				new Factory("Redisson lease 30 s", (server) -> new RedissonLock(server, true)),
				new Factory(AsyncContenders.REDISSON_ASYNC, AsyncContenders.RedissonAsync::new),
				new Factory("ShedLock default", (server) -> new ShedLock(server, false)),
				new Factory("ShedLock safeUpdate", (server) -> new ShedLock(server, true)),
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

	/**
	 * setnx-lock's registry with its default settings but for the protocol.
	 */
	static final class SetnxLock implements Contender {

		private final LettuceConnectionFactory factory;

		private final SetnxLockRegistry registry;

		private final String name;

		SetnxLock(Server server, LockProtocol protocol) {
			this(server.connectionFactory(), server, protocol, "setnx-lock " + protocol.name().toLowerCase());
		}

		private SetnxLock(LettuceConnectionFactory factory, Server server, LockProtocol protocol, String name) {
			this.factory = factory;
			this.name = name;
			this.registry = new SetnxLockRegistry(new StringRedisTemplate(this.factory),
					SetnxLockSettings.builder()
						.protocol(protocol)
						.keyPrefix(server.unique("bench:setnx") + ":")
						.build());
		}

		/**
		 * The token protocol signed in as a user that may run everything but the server's
		 * compare-and-delete ({@code DELIFEQ} on Valkey, {@code DELEX} on Redis), so that
		 * it releases with its script; {@code null} on a server without either, where the
		 * plain token contender already does.
		 */
		static SetnxLock scriptReleaseWhereNativeIs(Server server) {
			LettuceConnectionFactory admin = server.connectionFactory();
			String user = "bench-script-release";
			try (RedisConnection connection = admin.getConnection()) {
				for (String command : List.of("delifeq", "delex")) {
					try {
						connection.execute("ACL", bytes("SETUSER"), bytes(user), bytes("reset"), bytes("on"),
								bytes(">" + user), bytes("~*"), bytes("&*"), bytes("+@all"), bytes("-" + command));
					}
					catch (DataAccessException ex) {
						if (String.valueOf(ex.getMostSpecificCause().getMessage()).contains("Unknown command")) {
							// Not this server's command: a rule cannot name it.
							continue;
						}
						throw ex;
					}
					RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(server.host(),
							server.port());
					configuration.setUsername(user);
					configuration.setPassword(user);
					return new SetnxLock(server.connectionFactory(configuration), server, LockProtocol.TOKEN,
							SCRIPT_RELEASE);
				}
				return null;
			}
			finally {
				admin.destroy();
			}
		}

		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public KeyLock lockFor(String key) {
			return KeyLock.of(this.registry.obtain(key));
		}

		@Override
		public void close() {
			this.registry.close();
			this.factory.destroy();
		}

	}

	/**
	 * The least any safe lock on one Redis must do: one {@code SET NX PX} to acquire, one
	 * compare-and-delete script to release, on a single shared connection.
	 */
	static final class RawFloor implements Contender {

		// Atomic because the value must be read and deleted with nothing in between: a
		// DEL after a separate GET could remove a lock that expired and was taken by
		// another.
		private static final String COMPARE_AND_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
				+ "return redis.call('del', KEYS[1]) else return 0 end";

		private static final AtomicLong OWNERS = new AtomicLong();

		private final RedisClient client;

		private final StatefulRedisConnection<String, String> connection;

		private final RedisCommands<String, String> commands;

		private final String sha;

		private final String prefix;

		RawFloor(Server server) {
			this.prefix = server.unique("bench:raw");
			this.client = RedisClient.create(RedisURI.create(server.host(), server.port()));
			this.connection = this.client.connect();
			this.commands = this.connection.sync();
			this.sha = this.commands.scriptLoad(COMPARE_AND_DELETE);
		}

		@Override
		public String name() {
			return FLOOR;
		}

		@Override
		public KeyLock lockFor(String key) {
			String redisKey = this.prefix + ":" + key;
			String tokenPrefix = Long.toHexString(OWNERS.incrementAndGet()) + ":";
			SetArgs nxPx = SetArgs.Builder.nx().px(LEASE.toMillis());
			return new KeyLock() {

				private long count;

				private String token;

				@Override
				public void lock() {
					String candidate = tokenPrefix + (++this.count);
					while (!"OK".equals(RawFloor.this.commands.set(redisKey, candidate, nxPx))) {
						LockSupport.parkNanos(RETRY_PAUSE_NANOS);
					}
					this.token = candidate;
				}

				@Override
				public void unlock() {
					Long deleted = RawFloor.this.commands.evalsha(RawFloor.this.sha, ScriptOutputType.INTEGER,
							new String[] { redisKey }, this.token);
					if (deleted == null || deleted != 1) {
						throw new IllegalStateException("Lock '" + redisKey + "' was no longer held");
					}
				}

			};
		}

		@Override
		public void close() {
			this.connection.close();
			this.client.shutdown();
		}

	}

	/**
	 * One {@code PING} per cycle: what a single round trip costs, half of the floor.
	 */
	static final class Ping implements Contender {

		private final RedisClient client;

		private final StatefulRedisConnection<String, String> connection;

		Ping(Server server) {
			this.client = RedisClient.create(RedisURI.create(server.host(), server.port()));
			this.connection = this.client.connect();
		}

		@Override
		public String name() {
			return "PING round trip";
		}

		@Override
		public boolean excludes() {
			return false;
		}

		@Override
		public KeyLock lockFor(String key) {
			RedisCommands<String, String> commands = this.connection.sync();
			return new KeyLock() {

				@Override
				public void lock() {
					commands.ping();
				}

				@Override
				public void unlock() {
				}

			};
		}

		@Override
		public void close() {
			this.connection.close();
			this.client.shutdown();
		}

	}

	/**
	 * Spring Integration's {@code RedisLockRegistry} with a 30 s expiry.
	 */
	static final class SpringIntegration implements Contender {

		private final LettuceConnectionFactory factory;

		private final RedisLockRegistry registry;

		private final String name;

		SpringIntegration(Server server, RedisLockType type) {
			this.factory = server.connectionFactory();
			this.registry = new RedisLockRegistry(this.factory, server.unique("bench:si"), LEASE);
			this.registry.setRedisLockType(type);
			this.name = (type == RedisLockType.SPIN_LOCK) ? "Spring Integration spin" : "Spring Integration pub/sub";
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public KeyLock lockFor(String key) {
			return KeyLock.of(this.registry.obtain(key));
		}

		@Override
		public void close() {
			this.registry.destroy();
			this.factory.destroy();
		}

	}

	/**
	 * Redisson's {@code RLock}: without a lease its watchdog renews the lock, with one it
	 * does not.
	 */
	static final class RedissonLock implements Contender {

		private final RedissonClient client;

		private final boolean lease;

		private final String prefix;

		RedissonLock(Server server, boolean lease) {
			this.prefix = server.unique("bench:redisson");
			Config config = new Config();
			config.useSingleServer().setAddress("redis://" + server.host() + ":" + server.port());
			this.client = Redisson.create(config);
			this.lease = lease;
		}

		@Override
		public String name() {
			return this.lease ? "Redisson lease 30 s" : "Redisson watchdog";
		}

		@Override
		public KeyLock lockFor(String key) {
			RLock lock = this.client.getLock(this.prefix + ":" + key);
			long leaseMillis = LEASE.toMillis();
			return new KeyLock() {

				@Override
				public void lock() {
					if (RedissonLock.this.lease) {
						lock.lock(leaseMillis, TimeUnit.MILLISECONDS);
					}
					else {
						lock.lock();
					}
				}

				@Override
				public void unlock() {
					lock.unlock();
				}

			};
		}

		@Override
		public void close() {
			this.client.shutdown();
		}

	}

	/**
	 * ShedLock's Spring Data Redis provider, which only tries once; a failed attempt is
	 * retried here after a short pause. Without {@code safeUpdate} its release is a plain
	 * {@code DEL}.
	 */
	static final class ShedLock implements Contender {

		private final LettuceConnectionFactory factory;

		private final RedisLockProvider provider;

		private final boolean safe;

		ShedLock(Server server, boolean safe) {
			this.factory = server.connectionFactory();
			this.provider = new RedisLockProvider.Builder(this.factory).environment(server.unique("bench"))
				.safeUpdate(safe)
				.build();
			this.safe = safe;
		}

		@Override
		public String name() {
			return this.safe ? "ShedLock safeUpdate" : "ShedLock default";
		}

		@Override
		public KeyLock lockFor(String key) {
			return new KeyLock() {

				private SimpleLock held;

				@Override
				public void lock() {
					while (true) {
						Optional<SimpleLock> lock = ShedLock.this.provider
							.lock(new LockConfiguration(Instant.now(), key, LEASE, Duration.ZERO));
						if (lock.isPresent()) {
							this.held = lock.get();
							return;
						}
						LockSupport.parkNanos(RETRY_PAUSE_NANOS);
					}
				}

				@Override
				public void unlock() {
					this.held.unlock();
				}

			};
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

}
