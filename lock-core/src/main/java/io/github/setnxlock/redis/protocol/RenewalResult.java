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

package io.github.setnxlock.redis.protocol;

/**
 * The answer to one renewal of a batch: the extended lease, a rejection (the key is no
 * longer the holder's), or a failure to reach Redis.
 *
 * @param renewed the extended lease, or {@code null}
 * @param rejected what Redis found instead of the holder's key, or {@code null}
 * @param failure the error, or {@code null}
 * @author setnx-lock authors
 */
public record RenewalResult(Lease renewed, ReleaseResult rejected, RuntimeException failure) {

	/**
	 * Return the result of a renewal that extended the lease.
	 * @param lease the extended lease
	 * @return the result
	 */
	public static RenewalResult renewed(Lease lease) {
		return new RenewalResult(lease, null, null);
	}

	/**
	 * Return the result of a renewal that found the key no longer the holder's.
	 * @param found what Redis found instead
	 * @return the result
	 */
	public static RenewalResult rejected(ReleaseResult found) {
		return new RenewalResult(null, found, null);
	}

	/**
	 * Return the result of a renewal that could not reach Redis.
	 * @param failure the error
	 * @return the result
	 */
	public static RenewalResult failed(RuntimeException failure) {
		return new RenewalResult(null, null, failure);
	}

}
