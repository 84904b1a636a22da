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

import java.util.List;

/**
 * Everything one run measured.
 *
 * @param uncontended the uncontended scenarios
 * @param contended the contended scenarios: one JVM, then two
 * @param annotation the annotation path against the direct call, or {@code null} when the
 * contenders run did not include setnx-lock
 * @author setnx-lock authors
 */
public record Report(List<UncontendedScenario> uncontended, List<ContendedScenario> contended,
		AnnotationPath.Result annotation) {

	/**
	 * Whether any row saw an error or a mutual-exclusion violation.
	 * @return whether the run failed
	 */
	public boolean failed() {
		return this.uncontended.stream()
			.flatMap((scenario) -> scenario.rows().stream())
			.anyMatch((row) -> row.errors() > 0 || row.violations() > 0)
				|| this.contended.stream()
					.flatMap((scenario) -> scenario.rows().stream())
					.anyMatch((row) -> row.errors() > 0 || row.violations() > 0)
				|| (this.annotation != null && this.annotation.violations() > 0);
	}

}
