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
package io.github.setnxlock.redis.engine;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How long a contender sleeps between attempts while someone else holds the lock: a short
 * pause that doubles up to a cap, with jitter so that contenders in different processes
 * do not retry in step, and never longer than the holder's claim has left (a holder that
 * dies is replaced as soon as its lease ends). One instance per wait; not thread-safe.
 *
 * @author setnx-lock authors
 */
final class RetryBackoff {

	static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	/**
	 * The cap while waiting for holders that announce their release: the re-check only
	 * covers a subscription that is not confirmed yet.
	 */
	static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(64);

	/**
	 * The cap while holders may release without a word (clients of the documented
	 * pattern, which delete the key and retry every few milliseconds themselves): short
	 * enough that such clients do not win every handoff.
	 */
	static final long SHORT_MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	private final long maxPauseNanos;

	private long pauseNanos = FIRST_PAUSE_NANOS;

	RetryBackoff(long maxPauseNanos) {
		this.maxPauseNanos = maxPauseNanos;
	}

	/**
	 * Return the next pause.
	 * @param holderTtlMillis the time left on the holder's claim, or a negative number
	 * when unknown
	 * @return the pause in nanoseconds, at least one millisecond
	 */
	long nextPauseNanos(long holderTtlMillis) {
		long base = this.pauseNanos;
		this.pauseNanos = Math.min(this.pauseNanos * 2, this.maxPauseNanos);
		long jittered = base / 2 + ThreadLocalRandom.current().nextLong(base);
		if (holderTtlMillis >= 0) {
			// Wake just after the claim ends rather than up to a whole pause later.
			jittered = Math.min(jittered, TimeUnit.MILLISECONDS.toNanos(holderTtlMillis + 1));
		}
		return Math.max(jittered, TimeUnit.MILLISECONDS.toNanos(1));
	}

}
