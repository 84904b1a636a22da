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

package io.github.setnxlock.test;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The fixture's groups of servers: a replica set that replicates and can be split, a
 * Sentinel that fails over, and a cluster that serves every slot.
 *
 * @author setnx-lock authors
 */
class RedisGroupsTests {

	@Test
	void aReplicaGetsThePrimarysWritesUntilItsLinkIsCut() {
		try (RedisReplicaSet set = RedisReplicaSet.start(1)) {
			set.primary().execute("SET", "k", "before");
			set.awaitReplicated();
			assertThat(set.replica(0).execute("GET", "k")).isEqualTo("before");
			assertThatExceptionOfType(RedisReplyException.class)
				.isThrownBy(() -> set.replica(0).execute("SET", "k", "x"))
				.withMessageContaining("READONLY");
			set.cutReplication(0);
			set.primary().execute("SET", "k", "after");
			set.promote(0);
			assertThat(set.replica(0).execute("GET", "k")).isEqualTo("before");
			assertThat(set.replica(0).execute("SET", "k", "promoted")).isEqualTo("OK");
		}
	}

	@Test
	void theSentinelFailsOverToTheReplicaWhenThePrimaryDies() {
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			RedisServer oldPrimary = group.primary();
			oldPrimary.execute("SET", "k", "v");
			group.awaitReplicated();
			RedisServer newPrimary = group.failover();
			assertThat(newPrimary.port()).isNotEqualTo(oldPrimary.port());
			assertThat(group.primary().port()).isEqualTo(newPrimary.port());
			assertThat(((List<?>) newPrimary.execute("ROLE")).get(0)).isEqualTo("master");
			assertThat(newPrimary.execute("GET", "k")).isEqualTo("v");
		}
	}

	@Test
	void theClusterServesEverySlotFromItsNodes() {
		try (RedisClusterGroup cluster = RedisClusterGroup.start(3)) {
			assertThat(cluster.nodes()).hasSize(3);
			for (String key : List.of("a", "b", "c", "{user}:1", "{user}:2")) {
				RedisServer node = cluster.nodeFor(key);
				assertThat(node.execute("SET", key, "v")).isEqualTo("OK");
				for (RedisServer other : cluster.nodes()) {
					if (other != node) {
						assertThatExceptionOfType(RedisReplyException.class).isThrownBy(() -> other.execute("GET", key))
							.withMessageStartingWith("MOVED " + cluster.slotOf(key));
					}
				}
			}
			assertThat(cluster.slotOf("{user}:1")).isEqualTo(cluster.slotOf("{user}:2"));
		}
	}

}
