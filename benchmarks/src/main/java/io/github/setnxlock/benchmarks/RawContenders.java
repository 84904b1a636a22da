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

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The hand-written baselines, each on one Lettuce connection: the floor every ratio is
 * taken against, and a {@code PING} round trip.
 *
 * @author setnx-lock authors
 */
final class RawContenders {

	static final String PING = "PING round trip";

	private RawContenders() {
	}

	/**
	 * The least any safe lock on one Redis must do: one {@code SET NX PX} to acquire, one
	 * compare-and-delete script to release, on a single shared connection.
	 */
	static final class Floor extends OnOneConnection {

		// Atomic because the value must be read and deleted with nothing in between: a
		// DEL after a separate GET could remove a lock that expired and was taken by
		// another.
		private static final String COMPARE_AND_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
				+ "return redis.call('del', KEYS[1]) else return 0 end";

		private static final AtomicLong OWNERS = new AtomicLong();

		private final String sha;

		private final String prefix;

		Floor(Contenders.Server server) {
			super(server);
			this.prefix = server.unique("bench:raw");
			this.sha = this.commands.scriptLoad(COMPARE_AND_DELETE);
		}

		@Override
		public String name() {
			return Contenders.FLOOR;
		}

		@Override
		public KeyLock lockFor(String key) {
			String redisKey = this.prefix + ":" + key;
			String tokenPrefix = Long.toHexString(OWNERS.incrementAndGet()) + ":";
			SetArgs nxPx = SetArgs.Builder.nx().px(Contenders.LEASE.toMillis());
			return new KeyLock() {

				private long count;

				private String token;

				@Override
				public void lock() {
					String candidate = tokenPrefix + (++this.count);
					while (!"OK".equals(Floor.this.commands.set(redisKey, candidate, nxPx))) {
						LockSupport.parkNanos(Contenders.RETRY_PAUSE_NANOS);
					}
					this.token = candidate;
				}

				@Override
				public void unlock() {
					Long deleted = Floor.this.commands.evalsha(Floor.this.sha, ScriptOutputType.INTEGER,
							new String[] { redisKey }, this.token);
					if (deleted == null || deleted != 1) {
						throw new IllegalStateException("Lock '" + redisKey + "' was no longer held");
					}
				}

			};
		}

	}

	/**
	 * One {@code PING} per cycle: what a single round trip costs, half of the floor.
	 */
	static final class Ping extends OnOneConnection {

		Ping(Contenders.Server server) {
			super(server);
		}

		@Override
		public String name() {
			return PING;
		}

		@Override
		public boolean excludes() {
			return false;
		}

		@Override
		public KeyLock lockFor(String key) {
			return new KeyLock() {

				@Override
				public void lock() {
					Ping.this.commands.ping();
				}

				@Override
				public void unlock() {
				}

			};
		}

	}

	private abstract static class OnOneConnection implements Contender {

		private final RedisClient client;

		private final StatefulRedisConnection<String, String> connection;

		final RedisCommands<String, String> commands;

		OnOneConnection(Contenders.Server server) {
			this.client = RedisClient.create(RedisURI.create(server.host(), server.port()));
			this.connection = this.client.connect();
			this.commands = this.connection.sync();
		}

		@Override
		public void close() {
			this.connection.close();
			this.client.shutdown();
		}

	}

}
