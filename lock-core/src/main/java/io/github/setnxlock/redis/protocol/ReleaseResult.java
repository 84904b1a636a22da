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
 * What releasing a lock found in Redis. Internal API.
 *
 * @author setnx-lock authors
 */
public enum ReleaseResult {

	/**
	 * The key was ours and is deleted (or, when kept, expires when asked), and the
	 * release was not announced: nobody had marked it as waited for.
	 */
	RELEASED,

	/**
	 * The key was ours and is deleted, and the release was announced on the release
	 * channel.
	 */
	RELEASED_AND_ANNOUNCED,

	/** The key was held by someone else; nothing was deleted. */
	NOT_OURS,

	/**
	 * Nothing of ours was left to release, and nothing shows that another client took the
	 * key from us: there was no key, or the client may have sent this release again after
	 * a reconnect, which would find the key its first run deleted (and perhaps another
	 * client's key since). Not a loss by itself: a release that found no key is a loss
	 * only where the holder knows so otherwise (its deadline passed, a renewal was
	 * answered "not ours").
	 */
	GONE,

	/**
	 * Our timestamp had expired, so the key was left alone: by the documented rule
	 * another client may already have taken it over.
	 */
	EXPIRED;

	/**
	 * Return whether the release leaves nothing of ours in Redis and found no sign of a
	 * loss.
	 * @return {@code true} for {@link #RELEASED}, {@link #RELEASED_AND_ANNOUNCED} and
	 * {@link #GONE}
	 */
	public boolean released() {
		return this == RELEASED || this == RELEASED_AND_ANNOUNCED || this == GONE;
	}

}
