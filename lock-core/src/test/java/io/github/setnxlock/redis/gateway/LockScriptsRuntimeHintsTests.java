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

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native image gets every Lua script lock-core ships, found on the classpath so that a
 * new script, wherever it is put, is checked too, and the Lettuce class the gateway looks
 * up by name; the registrar is found where Spring's AOT processing looks.
 *
 * @author setnx-lock authors
 */
class LockScriptsRuntimeHintsTests {

	private static final String ROOT = "io/github/setnxlock/";

	private final RuntimeHints hints = new RuntimeHints();

	LockScriptsRuntimeHintsTests() {
		new LockScriptsRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void everyLuaScriptIsARegisteredResource() throws IOException {
		List<String> scripts = Arrays
			.stream(new PathMatchingResourcePatternResolver().getResources("classpath*:" + ROOT + "**/*.lua"))
			.map(LockScriptsRuntimeHintsTests::classpathLocation)
			.toList();
		assertThat(scripts).contains(ROOT + "redis/token/token-acquire.lua", ROOT + "redis/protocol/read.lua",
				ROOT + "redis/gateway/native-release-check.lua");
		assertThat(scripts).allSatisfy(
				(script) -> assertThat(RuntimeHintsPredicates.resource().forResource(script)).accepts(this.hints));
	}

	@Test
	void aFileThatIsNotAScriptIsNotRegistered() {
		assertThat(RuntimeHintsPredicates.resource().forResource(ROOT + "redis/gateway/LockScript.class"))
			.rejects(this.hints);
	}

	@Test
	void lettucesClientClassCanBeFoundByName() {
		assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(LockScriptsRuntimeHints.LETTUCE_CLIENT)))
			.accepts(this.hints);
	}

	@Test
	void theRegistrarIsListedInAotFactories() {
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class);
		assertThat(registrars).hasAtLeastOneElementOfType(LockScriptsRuntimeHints.class);
	}

	private static String classpathLocation(Resource resource) {
		try {
			String url = resource.getURL().toString();
			return url.substring(url.lastIndexOf(ROOT));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
