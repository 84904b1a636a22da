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
 * client can guess or repeat. Tokens are secrets of the holder and are never logged.
 *
 * @author setnx-lock authors
 */
final class OwnerTokens {

	private final String prefix;

	private final AtomicLong sequence = new AtomicLong();

	OwnerTokens() {
		byte[] random = new byte[16];
		new SecureRandom().nextBytes(random);
		this.prefix = HexFormat.of().formatHex(random) + ":";
	}

	String next() {
		return this.prefix + Long.toHexString(this.sequence.incrementAndGet());
	}

	@Override
	public String toString() {
		return "OwnerTokens[issued=" + this.sequence.get() + "]";
	}

}
