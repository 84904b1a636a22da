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
import java.util.List;

import io.github.setnxlock.redis.LockProtocol;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * setnx-lock's registry with its default settings but for the protocol.
 *
 * @author setnx-lock authors
 */
final class SetnxLockContenders {

	private SetnxLockContenders() {
	}

	static String name(LockProtocol protocol) {
		return "setnx-lock " + protocol.name().toLowerCase();
	}

	static Contender create(Contenders.Server server, LockProtocol protocol) {
		return create(server.connectionFactory(), server, protocol, name(protocol));
	}

	/**
	 * The token protocol signed in as a user that may run everything but the server's
	 * compare-and-delete ({@code DELIFEQ} on Valkey, {@code DELEX} on Redis), so that it
	 * releases with its script; {@code null} on a server without either, where the plain
	 * token contender already does.
	 */
	static Contender scriptReleaseWhereNativeIs(Contenders.Server server) {
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
				return create(server.connectionFactory(configuration), server, LockProtocol.TOKEN,
						Contenders.SCRIPT_RELEASE);
			}
			return null;
		}
		finally {
			admin.destroy();
		}
	}

	private static Contender create(LettuceConnectionFactory factory, Contenders.Server server, LockProtocol protocol,
			String name) {
		SetnxLockRegistry registry = new SetnxLockRegistry(new StringRedisTemplate(factory),
				SetnxLockSettings.builder().protocol(protocol).keyPrefix(server.unique("bench:setnx") + ":").build());
		return new RegistryContender(name, registry::obtain, () -> {
			registry.close();
			factory.destroy();
		});
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
