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

import java.util.Arrays;
import java.util.List;

/**
 * The median every figure across rounds is taken with.
 *
 * @author setnx-lock authors
 */
final class Median {

	private Median() {
	}

	static double of(List<Double> values) {
		return of(values.stream().mapToDouble(Double::doubleValue).toArray());
	}

	/**
	 * Return the middle value, or the mean of the middle two of an even count.
	 * @param values the values, in any order
	 * @return the median, or not a number when there is none
	 */
	static double of(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

}
