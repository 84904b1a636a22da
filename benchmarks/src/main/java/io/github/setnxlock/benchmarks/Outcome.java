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

/**
 * What one timed run of a contender reports in every scenario, for the rounds that
 * interleave the contenders.
 *
 * @author setnx-lock authors
 */
interface Outcome {

	/**
	 * Return how many acquire+release cycles completed.
	 * @return the cycles
	 */
	long cycles();

	/**
	 * Return the cycles per second of the run.
	 * @return the rate
	 */
	double cyclesPerSecond();

	/**
	 * Return the first failure of the run.
	 * @return the failure, or {@code null}
	 */
	Throwable firstError();

}
