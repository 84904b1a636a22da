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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The fixture's independent masters for Redlock: each is a server of its own that can be
 * frozen, resumed, stopped and restarted empty.
 *
 * @author setnx-lock authors
 */
class RedisNodesTests {

	@Test
	void eachNodeIsAnIndependentServerThatCanBeFrozenStoppedAndRestartedEmpty() {
		try (RedisNodes nodes = RedisNodes.start(3)) {
			assertThat(nodes.nodes()).extracting(RedisServer::port).doesNotHaveDuplicates();
			assertThat(nodes.name(1)).isEqualTo("127.0.0.1:" + nodes.node(1).port());
			nodes.node(0).execute("SET", "k", "v");
			nodes.node(1).execute("SET", "k", "v");
			assertThat(nodes.holdersOf("k")).isEqualTo(2);
			nodes.pause(1);
			try {
				assertThatExceptionOfType(RuntimeException.class)
					.isThrownBy(() -> Resp.execute(nodes.node(1).host(), nodes.node(1).port(), 300, "PING"));
				assertThat(nodes.holdersOf("k")).isEqualTo(1);
			}
			finally {
				nodes.resume(1);
			}
			assertThat(nodes.node(1).execute("GET", "k")).isEqualTo("v");
			nodes.restart(0);
			assertThat(nodes.node(0).execute("GET", "k")).isNull();
			nodes.pause(0);
			nodes.resumeAll();
			nodes.flushAll();
			assertThat(nodes.holdersOf("k")).isZero();
			nodes.node(1).execute("SET", "k", "v");
			nodes.stop(2);
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> nodes.node(2).execute("PING"));
			assertThat(nodes.holdersOf("k")).isEqualTo(1);
		}
	}

}
