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
package io.github.setnxlock.redis.gateway;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;

/**
 * The reads of the operator API and of Redlock's restart check, as callbacks the template
 * runs on one connection: what a lock key holds ({@link RedisGateway#read}), which keys
 * match a pattern ({@link RedisGateway#scan}) and the server's uptime
 * ({@link RedisGateway#uptimeSeconds}).
 *
 * @author setnx-lock authors
 */
final class KeyReads {

	private KeyReads() {
	}

	static RedisCallback<RedisGateway.KeyReading> reading(LockKey key, boolean withValue, boolean withOwner) {
		return (connection) -> {
			byte[] redisKey = key.redisKey().getBytes(StandardCharsets.UTF_8);
			String type = connection.keyCommands().type(redisKey).code();
			Long ttl = connection.keyCommands().pTtl(redisKey);
			String value = null;
			if (withValue && "string".equals(type)) {
				value = string(connection.stringCommands().get(redisKey));
			}
			String owner = null;
			if (withOwner) {
				owner = ownerValue(connection, key);
			}
			return new RedisGateway.KeyReading(type, (ttl != null) ? ttl : -2, value, owner);
		};
	}

	/**
	 * Read the owner key, which only says who holds the lock: a user whose rights do not
	 * reach it (a least-privilege user of the token protocol's rules) reads no owner.
	 */
	private static String ownerValue(RedisConnection connection, LockKey key) {
		byte[] ownerKey = key.ownerKey().getBytes(StandardCharsets.UTF_8);
		try {
			return "string".equals(connection.keyCommands().type(ownerKey).code())
					? string(connection.stringCommands().get(ownerKey)) : null;
		}
		catch (DataAccessException ex) {
			return null;
		}
	}

	private static String string(byte[] raw) {
		return (raw != null) ? new String(raw, StandardCharsets.UTF_8) : null;
	}

	/** Every primary of a Cluster is scanned. */
	static RedisCallback<List<String>> scanning(String pattern, int limit) {
		return (connection) -> {
			ScanOptions options = ScanOptions.scanOptions().match(pattern).count(1000).build();
			List<String> keys = new ArrayList<>();
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster() && keys.size() < limit) {
						try (Cursor<byte[]> cursor = cluster.scan(node, options)) {
							collect(cursor, keys, limit);
						}
					}
				}
			}
			else {
				try (Cursor<byte[]> cursor = connection.keyCommands().scan(options)) {
					collect(cursor, keys, limit);
				}
			}
			return keys;
		};
	}

	static RedisCallback<Long> uptimeSeconds() {
		return (connection) -> {
			Properties info = connection.serverCommands().info("server");
			String uptime = (info != null) ? info.getProperty("uptime_in_seconds") : null;
			if (uptime == null) {
				throw new IllegalArgumentException("INFO server gave no uptime_in_seconds");
			}
			return Long.parseLong(uptime.trim());
		};
	}

	private static void collect(Cursor<byte[]> cursor, List<String> keys, int limit) {
		while (keys.size() < limit && cursor.hasNext()) {
			keys.add(new String(cursor.next(), StandardCharsets.UTF_8));
		}
	}

}
