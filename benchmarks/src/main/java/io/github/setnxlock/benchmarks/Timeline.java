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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.HdrHistogram.Histogram;

import io.github.setnxlock.benchmarks.StampedWorkers.Acquisition;

/**
 * The acquisitions of both JVMs of a {@link TwoJvms} run merged into one timeline:
 * handoffs, waits, overlaps (violations) and the handoffs that cross from one JVM to the
 * other. Both JVMs read the same system clock, so their stamps compare to within its
 * resolution.
 *
 * @author setnx-lock authors
 */
final class Timeline {

	private Timeline() {
	}

	static ContendedWorkload.Result merge(String contender, long startMicros, List<Acquisition> acquisitions,
			long errors, Throwable firstError) {
		List<Acquisition> timeline = new ArrayList<>(acquisitions);
		timeline.sort(Comparator.comparingLong(Acquisition::entered).thenComparingLong(Acquisition::left));
		Histogram waits = new Histogram(3);
		Histogram handoffs = new Histogram(3);
		long violations = 0;
		long sameThread = 0;
		long crossJvm = 0;
		long latestLeft = Long.MIN_VALUE;
		Acquisition previous = null;
		for (Acquisition acquisition : timeline) {
			waits.recordValue(Math.max(0, acquisition.entered() - acquisition.called()) * 1000);
			if (previous != null) {
				// entered is stamped after lock() returned and left before unlock() was
				// called, so an acquisition that enters before an earlier one left
				// overlapped it
				if (acquisition.entered() < latestLeft) {
					violations++;
				}
				if (acquisition.jvm() == previous.jvm() && acquisition.thread() == previous.thread()) {
					sameThread++;
				}
				else {
					handoffs.recordValue(Math.max(0, acquisition.entered() - previous.left()) * 1000);
					if (acquisition.jvm() != previous.jvm()) {
						crossJvm++;
					}
				}
			}
			latestLeft = Math.max(latestLeft, acquisition.left());
			previous = acquisition;
		}
		long elapsedNanos = timeline.isEmpty() ? 1 : Math.max(1, (latestLeft - startMicros) * 1000);
		return new ContendedWorkload.Result(contender, timeline.size(), elapsedNanos, waits, handoffs, sameThread,
				crossJvm, violations, errors, firstError);
	}

}
