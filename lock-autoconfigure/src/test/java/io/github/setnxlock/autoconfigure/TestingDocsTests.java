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
package io.github.setnxlock.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/testing.md} shows tests that run in this build: each of its Java snippets
 * is followed by the path of the test it comes from, and that test holds it word for
 * word.
 *
 * @author setnx-lock authors
 */
class TestingDocsTests {

	private static final Pattern SNIPPET = Pattern.compile("```java\\n(.*?)```\\s+From `([^`]+)`", Pattern.DOTALL);

	@Test
	void everyJavaSnippetIsPartOfTheTestItNames() throws IOException {
		String page = Files.readString(Path.of("..", "docs", "testing.md"), StandardCharsets.UTF_8);
		Matcher snippet = SNIPPET.matcher(page);
		int snippets = 0;
		while (snippet.find()) {
			snippets++;
			Path test = Path.of("..", snippet.group(2));
			assertThat(test).as("the test named after snippet %d", snippets).isRegularFile();
			assertThat(Files.readString(test, StandardCharsets.UTF_8)).as("%s", test).contains(snippet.group(1));
		}
		assertThat(snippets).as("snippets with their tests").isEqualTo(3);
	}

}
