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
import java.util.ArrayList;
import java.util.List;

import io.github.setnxlock.redis.gateway.ReleaseMessages;
import io.github.setnxlock.test.RedisConnections;
import io.github.setnxlock.test.RedisServer;

/**
 * The Redis ACL user with only the rights a registry needs, as docs/topologies.md,
 * "Running as a least-privilege Redis user" lists them: created on a test server through
 * its own (default user's) connection, and signed in to by the registry under test.
 *
 * @author setnx-lock authors
 */
final class LeastPrivilegeUser {

	static final String NAME = "setnx-lock";

	static final String PASSWORD = "least-privilege";

	private LeastPrivilegeUser() {
	}

	/**
	 * Return the ACL rules a registry with the given settings needs, one string per rule,
	 * in the order docs/topologies.md gives them.
	 * @param settings the registry's settings
	 * @return the rules
	 */
	static List<String> rules(SetnxLockSettings settings) {
		List<String> rules = new ArrayList<>();
		// The lock scripts, by SHA1, sent in full on NOSCRIPT; the health check asks
		// which are loaded and loads the missing ones, as does a pipelined renewal.
		rules.addAll(List.of("+evalsha", "+eval", "+script|load", "+script|exists"));
		// What the scripts call: Redis checks a script's commands against the caller's
		// rights one by one. TIME is the fencing draw's clock in both protocols and
		// "now" of the timestamp protocol.
		rules.addAll(List.of("+get", "+set", "+del", "+pexpire", "+pttl", "+type", "+time", "+publish"));
		if (settings.protocol() == LockProtocol.TOKEN) {
			// isLocked() under the token protocol.
			rules.add("+exists");
		}
		// The release channel, and the keyspace notifications when they are used. Spring
		// Data Redis ends a subscription with a PING.
		rules.addAll(List.of("+subscribe", "+unsubscribe", "+ping"));
		if (settings.keyspaceNotifications()) {
			rules.addAll(List.of("+psubscribe", "+punsubscribe"));
		}
		String prefix = globEscaped(settings.keyPrefix());
		// Lock keys, and their fencing counters: {<lock key>}:fence, <lock key>:fence
		// (covered by the first), or {<tag>}:fence:<lock key> for a key with a } but no
		// hash tag.
		rules.addAll(List.of("~" + prefix + "*", "~{" + prefix + "*}:fence", "~{*}:fence:" + prefix + "*"));
		if (settings.protocol() == LockProtocol.TIMESTAMP) {
			// The timestamp protocol's owner keys, named as the fencing counters are.
			rules.addAll(List.of("~{" + prefix + "*}:owner", "~{*}:owner:" + prefix + "*"));
		}
		rules.add("&" + globEscaped(settings.releaseChannel()));
		if (settings.keyspaceNotifications()) {
			// A pattern subscription is allowed only for the very same pattern.
			rules.add("&" + ReleaseMessages.keyspacePattern(settings.keyPrefix()));
		}
		return rules;
	}

	/**
	 * Create the user on the server, or give it these rules alone if it exists.
	 * @param server the server
	 * @param rules its rules
	 */
	static void create(RedisServer server, List<String> rules) {
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", NAME, "reset", "resetchannels"));
		command.addAll(rules);
		command.addAll(List.of("on", ">" + PASSWORD));
		server.execute(command.toArray(String[]::new));
		server.execute("ACL", "LOG", "RESET");
	}

	/**
	 * Return a client whose registry signs in as the user.
	 * @param server the server
	 * @param settings the registry's settings
	 * @return a new client, which the caller closes
	 */
	static TestClient client(RedisServer server, SetnxLockSettings settings) {
		return new TestClient(RedisConnections.create(server, Duration.ofSeconds(2), NAME, PASSWORD), settings,
				List.of());
	}

	/**
	 * Return what the server refused the user since it was created: {@code ACL LOG}
	 * entries, each the list of its fields. Refused {@code CLIENT} commands are left out:
	 * Lettuce sends {@code CLIENT SETINFO} and {@code CLIENT MAINT_NOTIFICATIONS} when it
	 * connects, to servers that may not know them, and goes on without them.
	 * @param server the server
	 * @return the refusals, newest first
	 */
	static List<List<?>> refusals(RedisServer server) {
		List<List<?>> refusals = new ArrayList<>();
		for (Object entry : (List<?>) server.execute("ACL", "LOG")) {
			List<?> fields = (List<?>) entry;
			Object object = fields.get(fields.indexOf("object") + 1);
			if (!"client".equals(object) && !String.valueOf(object).startsWith("client|")) {
				refusals.add(fields);
			}
		}
		return refusals;
	}

	/**
	 * Escape the glob characters of a name, for a key or channel pattern that matches
	 * that name literally.
	 */
	private static String globEscaped(String name) {
		StringBuilder escaped = new StringBuilder();
		for (char c : name.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

}
