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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the repository's Markdown pages points at a file of the
 * repository, and a {@code #fragment} at a heading of the page it names, so that moving a
 * section from one page to another cannot leave a reader at a dead link.
 *
 * @author setnx-lock authors
 */
class DocumentationLinksTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	private static final Pattern CODE_SPAN = Pattern.compile("`[^`\n]*`");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");

	private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	@Test
	void everyRelativeLinkPointsAtAFileAndHeadingOfTheRepository() throws IOException {
		List<Path> pages = markdownPages();
		assertThat(pages).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/configuration.md"));
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Path page : pages) {
			for (String target : links(page)) {
				checked++;
				String problem = problem(page, target);
				if (problem != null) {
					broken.add(ROOT.relativize(page) + ": (" + target + ") " + problem);
				}
			}
		}
		assertThat(checked).as("relative links found").isGreaterThan(20);
		assertThat(broken).as("broken links").isEmpty();
	}

	private static List<Path> markdownPages() throws IOException {
		try (Stream<Path> files = Files.walk(ROOT)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".md"))
				.filter(DocumentationLinksTests::isSource)
				.sorted()
				.toList();
		}
	}

	/**
	 * Whether a file is part of the sources, not of a build's output or a tool's folder.
	 */
	private static boolean isSource(Path file) {
		for (Path part : ROOT.relativize(file)) {
			String name = part.toString();
			if (name.startsWith(".") || name.equals("target") || name.equals("node_modules")) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The targets of the page's links that stay inside the repository, outside code.
	 */
	private static List<String> links(Path page) throws IOException {
		List<String> targets = new ArrayList<>();
		for (String line : proseLines(page)) {
			Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
					targets.add(target);
				}
			}
		}
		return targets;
	}

	/**
	 * Why a link does not resolve, or {@code null} when it does.
	 */
	private String problem(Path page, String target) {
		int hash = target.indexOf('#');
		String file = (hash < 0) ? target : target.substring(0, hash);
		String fragment = (hash < 0) ? null : target.substring(hash + 1);
		Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
		if (!resolved.startsWith(ROOT)) {
			return "leaves the repository";
		}
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (fragment != null && resolved.getFileName().toString().endsWith(".md")
				&& !anchorsOf(resolved).contains(fragment)) {
			return "no such heading in " + ROOT.relativize(resolved);
		}
		return null;
	}

	private Set<String> anchorsOf(Path page) {
		return this.anchors.computeIfAbsent(page, (key) -> {
			try {
				return headingAnchors(key);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	/**
	 * The anchors GitHub gives the page's headings: lower case, punctuation dropped,
	 * spaces turned into hyphens, and a repeated one suffixed with {@code -1},
	 * {@code -2}, ...
	 */
	private static Set<String> headingAnchors(Path page) throws IOException {
		Set<String> found = new HashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : proseLines(page)) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String text = INLINE_LINK.matcher(heading.group(1)).replaceAll("$1");
				String slug = text.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} -]", "")
					.replace(' ', '-');
				int repeats = seen.merge(slug, 1, Integer::sum) - 1;
				found.add((repeats == 0) ? slug : slug + "-" + repeats);
			}
		}
		return found;
	}

	/**
	 * The page's lines outside fenced code blocks.
	 */
	private static List<String> proseLines(Path page) throws IOException {
		List<String> prose = new ArrayList<>();
		boolean inFence = false;
		for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
			if (line.stripLeading().startsWith("```")) {
				inFence = !inFence;
			}
			else if (!inFence) {
				prose.add(line);
			}
		}
		return prose;
	}

}
