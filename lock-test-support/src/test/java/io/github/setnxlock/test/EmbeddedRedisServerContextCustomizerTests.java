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

import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link EmbeddedRedisServer @EmbeddedRedisServer} does to a context, seen without a
 * Spring Boot application: which test classes get a server, where the properties point,
 * and that the server ends with the context. A Boot application that takes a lock on it
 * is lock-autoconfigure's {@code EmbeddedRedisServerTests}.
 *
 * @author setnx-lock authors
 */
class EmbeddedRedisServerContextCustomizerTests {

	private final EmbeddedRedisServerContextCustomizerFactory factory = new EmbeddedRedisServerContextCustomizerFactory();

	@Test
	void onlyAnnotatedTestClassesGetAServerAndTheyCanShareTheirContext() {
		assertThat(this.factory.createContextCustomizer(Unmarked.class, List.of())).isNull();
		ContextCustomizer marked = this.factory.createContextCustomizer(Marked.class, List.of());
		assertThat(marked).isNotNull();
		assertThat(this.factory.createContextCustomizer(MarkedByItsParent.class, List.of())).isEqualTo(marked)
			.hasSameHashCodeAs(marked);
		assertThat(this.factory.createContextCustomizer(Marked.Inner.class, List.of())).isEqualTo(marked);
	}

	@Test
	void theContextConnectsToARunningServerThatStopsWithTheContext() {
		RedisServer server;
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			new EmbeddedRedisServerContextCustomizer().customizeContext(context, null);
			context.refresh();
			server = context.getBean(RedisServer.class);
			assertThat(context.getEnvironment().getProperty("spring.data.redis.host")).isEqualTo(server.host());
			assertThat(context.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(server.port());
			assertThat(server.execute("PING")).isEqualTo("PONG");
		}
		RedisServer stopped = server;
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> stopped.execute("PING"));
	}

	@Test
	void theServerWinsOverTheApplicationsOwnRedisSettings() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("application", Map.of("spring.data.redis.url",
						"redis://user:secret@elsewhere:6380/3", "spring.data.redis.ssl.enabled", "true")));
			new EmbeddedRedisServerContextCustomizer().customizeContext(context, null);
			context.refresh();
			RedisServer server = context.getBean(RedisServer.class);
			URI url = URI.create(context.getEnvironment().getProperty("spring.data.redis.url"));
			assertThat(url.getScheme()).isEqualTo("redis");
			assertThat(url.getUserInfo()).isNull();
			assertThat(url.getPort()).isEqualTo(server.port());
			assertThat(url.getPath()).isEmpty();
			assertThat(context.getEnvironment().getProperty("spring.data.redis.ssl.enabled", Boolean.class)).isFalse();
		}
	}

	static class Unmarked {

	}

	@EmbeddedRedisServer
	static class Marked {

		@Nested
		class Inner {

		}

	}

	static class MarkedByItsParent extends Marked {

	}

}
