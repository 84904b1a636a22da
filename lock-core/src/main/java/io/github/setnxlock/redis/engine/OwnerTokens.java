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

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owner tokens for the token protocol: 128 random bits drawn once per registry from
 * {@link SecureRandom}, then a counter, so every acquisition writes a value no other
 * client can guess or repeat; with a {@link HolderIdentity} before them unless the
 * registry was told not to name its holders. Tokens are secrets of the holder and are
 * never logged.
 *
 * @author setnx-lock authors
 */
final class OwnerTokens {

	private final String processPrefix;

	private final String secret;

	private final AtomicLong sequence = new AtomicLong();

	/**
	 * Create the tokens of a registry.
	 * @param processPrefix what {@link HolderIdentity#processPrefix} gave, or
	 * {@code null} to name no holder
	 */
	OwnerTokens(String processPrefix) {
		byte[] random = new byte[16];
		new SecureRandom().nextBytes(random);
		this.processPrefix = processPrefix;
		this.secret = HexFormat.of().formatHex(random) + ":";
	}

	/**
	 * Return a new token, naming the given thread as the holder: the thread that asked
	 * for an asynchronous hold, whichever thread then takes the key.
	 * @param asker the thread that asked for the hold
	 * @return the token
	 */
	String next(Thread asker) {
		String token = this.secret + Long.toHexString(this.sequence.incrementAndGet());
		return (this.processPrefix != null) ? HolderIdentity.thread(this.processPrefix, asker) + ";" + token : token;
	}

	@Override
	public String toString() {
		return "OwnerTokens[issued=" + this.sequence.get() + "]";
	}

}
