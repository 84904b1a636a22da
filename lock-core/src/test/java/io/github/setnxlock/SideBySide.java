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
package io.github.setnxlock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs the variants of a test (both protocols, say) side by side, each on servers of its
 * own: a run of the process and fault tests mostly waits (for leases, pauses, other JVMs,
 * Redis), so two side by side take about the time of one. The error names each variant
 * that failed; the runs have stopped (their threads ended) when this returns or throws,
 * so that the next class that needs the cores does not start beside them.
 *
 * @author setnx-lock authors
 */
public final class SideBySide {

	private SideBySide() {
	}

	public static <T> void run(List<T> variants, Variant<T> variant) throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(variants.size());
		AssertionError failed = null;
		try {
			List<Future<?>> runs = new ArrayList<>();
			for (T each : variants) {
				runs.add(threads.submit(() -> {
					variant.run(each);
					return null;
				}));
			}
			for (int i = 0; i < runs.size(); i++) {
				try {
					runs.get(i).get();
				}
				catch (ExecutionException ex) {
					AssertionError named = new AssertionError(variants.get(i) + ": " + ex.getCause(), ex.getCause());
					if (failed == null) {
						failed = named;
					}
					else {
						failed.addSuppressed(named);
					}
				}
			}
		}
		catch (InterruptedException ex) {
			if (failed != null) {
				ex.addSuppressed(failed);
			}
			throw ex;
		}
		finally {
			threads.shutdownNow();
			threads.awaitTermination(30, TimeUnit.SECONDS);
		}
		if (failed != null) {
			throw failed;
		}
	}

	/** One variant's run. */
	@FunctionalInterface
	public interface Variant<T> {

		void run(T variant) throws Exception;

	}

}
