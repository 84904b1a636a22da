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

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Owner tokens for the token protocol: 128 random bits drawn once per registry from
 * {@link SecureRandom}, then a counter, so every acquisition writes a value no other
 * client can guess or repeat. Tokens are secrets of the holder and are never logged.
 * <p>
 * Unless the registry was told not to, a token names its holder, so that an operator
 * reads it with {@code redis-cli GET} and it costs no command of its own:
 * {@code <holder>;<secret>}, where the holder is {@code [application@]host/pid/thread}.
 * The holder keeps to letters, digits and {@code . _ - @ /}, so the token has no space
 * (the timestamp protocol's owner key separates it from the value with one), no {@code ;}
 * of its own and no {@code !} (a waiter's mark). After a local hand-off the token, and so
 * the thread named in it, is the first holder's.
 *
 * @author setnx-lock authors
 */
public final class OwnerTokens {

	private static final int MAX_PART = 64;

	/** A named token of this library, possibly marked by a waiter. */
	private static final Pattern OURS = Pattern.compile("([A-Za-z0-9._@/-]+);[0-9a-f]+:[0-9a-f]+!?");

	private final String processPrefix;

	private final String secret;

	private final AtomicLong sequence = new AtomicLong();

	/**
	 * Create the tokens of a registry.
	 * @param processPrefix what {@link #processPrefix} gave, or {@code null} to name no
	 * holder
	 */
	public OwnerTokens(String processPrefix) {
		byte[] random = new byte[16];
		new SecureRandom().nextBytes(random);
		this.processPrefix = processPrefix;
		this.secret = HexFormat.of().formatHex(random) + ":";
	}

	/**
	 * Return the part of every holder's identity that this process shares:
	 * {@code [application@]host/pid}.
	 * @param applicationName the application's name, or {@code null}
	 * @return the prefix
	 */
	public static String processPrefix(String applicationName) {
		String host = hostName();
		String prefix = clean(host) + "/" + ProcessHandle.current().pid();
		return (applicationName != null && !applicationName.isBlank()) ? clean(applicationName) + "@" + prefix : prefix;
	}

	/**
	 * Return the holder an owner token names.
	 * @param ownerToken a token as stored in Redis, possibly marked by a waiter
	 * @return the holder, or {@code null} when the token names none (written without
	 * identity, or by another client)
	 */
	public static String holderOf(String ownerToken) {
		if (ownerToken == null) {
			return null;
		}
		// Only a token of this library's form: another client's value before a ';' could
		// be anything, personal data included.
		Matcher token = OURS.matcher(ownerToken);
		return token.matches() ? token.group(1) : null;
	}

	static String thread(String processPrefix, Thread thread) {
		return processPrefix + "/" + clean(thread.getName());
	}

	/**
	 * Keep a name to the characters a token may hold, and to a length that keeps every
	 * command short.
	 */
	static String clean(String name) {
		StringBuilder cleaned = new StringBuilder(Math.min(name.length(), MAX_PART));
		for (int i = 0; i < name.length() && cleaned.length() < MAX_PART; i++) {
			char c = name.charAt(i);
			boolean kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
					|| c == '_' || c == '-';
			cleaned.append(kept ? c : '-');
		}
		return (cleaned.length() > 0) ? cleaned.toString() : "-";
	}

	/**
	 * Return this machine's name without asking DNS when the environment says it, since a
	 * misconfigured resolver can take seconds.
	 */
	private static String hostName() {
		String fromEnvironment = System.getenv("HOSTNAME");
		if (fromEnvironment == null || fromEnvironment.isBlank()) {
			fromEnvironment = System.getenv("COMPUTERNAME");
		}
		if (fromEnvironment != null && !fromEnvironment.isBlank()) {
			return fromEnvironment;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown-host";
		}
	}

	/**
	 * Return a new token, naming the given thread as the holder: the thread that asked
	 * for an asynchronous hold, whichever thread then takes the key.
	 * @param asker the thread that asked for the hold
	 * @return the token
	 */
	public String next(Thread asker) {
		String token = this.secret + Long.toHexString(this.sequence.incrementAndGet());
		return (this.processPrefix != null) ? thread(this.processPrefix, asker) + ";" + token : token;
	}

	@Override
	public String toString() {
		return "OwnerTokens[issued=" + this.sequence.get() + "]";
	}

}
