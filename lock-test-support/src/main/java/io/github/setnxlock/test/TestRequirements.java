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

import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs of the machine beyond a JDK and Maven (a Valkey server, Redis 8.4, a
 * JDK 21 for virtual threads), and what happens when the machine lacks it: on a
 * developer's machine the test is skipped, saying how to get it; in strict mode it fails,
 * so that a build that was meant to run it cannot pass without it.
 * <p>
 * Strict mode is on when the system property {@code setnx.lock.test.strict} or the
 * environment variable {@code SETNX_LOCK_TEST_STRICT} is {@code true}, or when neither is
 * set and the environment variable {@code CI} is {@code true}, as it is in CI, which
 * installs everything these tests need (see {@code .ci/run}).
 *
 * @author setnx-lock authors
 */
public final class TestRequirements {

	/**
	 * The system property that turns a missing requirement into a failure.
	 */
	public static final String STRICT_PROPERTY = "setnx.lock.test.strict";

	private TestRequirements() {
	}

	/**
	 * Go on only if the machine has what the test needs.
	 * @param present whether it has it
	 * @param missing what is missing and how to get it
	 * @throws org.opentest4j.TestAbortedException if it is missing and the build is not
	 * strict
	 * @throws IllegalStateException if it is missing and the build is strict
	 */
	public static void require(boolean present, String missing) {
		if (present) {
			return;
		}
		if (strict()) {
			throw new IllegalStateException(missing + " (a strict build, " + STRICT_PROPERTY
					+ "=true or CI=true, fails rather than skip this test)");
		}
		Assumptions.abort(missing);
	}

	/**
	 * Return whether a missing requirement fails the test instead of skipping it.
	 * @return whether the build is strict
	 */
	public static boolean strict() {
		String strict = System.getProperty(STRICT_PROPERTY, System.getenv("SETNX_LOCK_TEST_STRICT"));
		if (strict == null || strict.isBlank()) {
			strict = System.getenv("CI");
		}
		return Boolean.parseBoolean(strict);
	}

}
