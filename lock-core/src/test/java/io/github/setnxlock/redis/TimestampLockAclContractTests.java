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

import io.github.setnxlock.test.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract suite under the timestamp protocol with keyspace notifications, with the
 * registries signed in as a Redis ACL user that has only the rights docs/topologies.md
 * lists: every lock call works, and Redis refuses nothing.
 *
 * @author setnx-lock authors
 * @see LeastPrivilegeUser
 */
class TimestampLockAclContractTests extends AbstractLockContractTests {

	@Override
	protected SetnxLockSettings settings() {
		return SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.timestampUnit(TimestampUnit.MILLISECONDS)
			.keyspaceNotifications(true)
			.build();
	}

	@Override
	protected void prepareServer(RedisServer server) {
		server.execute("CONFIG", "SET", "notify-keyspace-events", "Kg");
		LeastPrivilegeUser.create(server, LeastPrivilegeUser.rules(settings()));
	}

	@Override
	protected TestClient newClient(RedisServer server) {
		return LeastPrivilegeUser.client(server, settings());
	}

	@Override
	protected void clientsClosed(RedisServer server) {
		assertThat(LeastPrivilegeUser.refusals(server)).as("refused by Redis").isEmpty();
	}

}
