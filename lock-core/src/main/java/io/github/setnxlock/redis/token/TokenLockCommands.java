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

package io.github.setnxlock.redis.token;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;
import io.github.setnxlock.redis.protocol.Replies;
import io.github.setnxlock.redis.protocol.Attempt;
import io.github.setnxlock.redis.protocol.Lease;
import io.github.setnxlock.redis.protocol.ReleaseResult;
import io.github.setnxlock.redis.protocol.RenewalResult;
import io.github.setnxlock.redis.protocol.ScriptCall;
import io.github.setnxlock.redis.protocol.ScriptProtocol;
import io.github.setnxlock.redis.protocol.WaiterMark;

/**
 * The token protocol: the lock key holds a random owner token and expires with the lease
 * ({@code SET NX PX}), so an expired holder's key is simply gone and the next
 * {@code SET NX} wins without any client clock; release deletes the key only while it
 * still holds our token. The fencing token is drawn when the holder first asks for it
 * ({@code token-fence.lua}), so that an acquisition is one plain command. Internal API.
 *
 * @author setnx-lock authors
 */
public final class TokenLockCommands extends ScriptProtocol {

	/**
	 * After a plain {@code SET NX PX} failed: {@code SET NX PX} again, or the waiter's
	 * mark.
	 */
	public static final LockScript ACQUIRE = LockScript.of(TokenLockCommands.class, "acquire", true, READ,
			"token-acquire.lua");

	/** The fencing draw of a hold, while the key is still the holder's. */
	public static final LockScript FENCE_DRAW = LockScript.of(TokenLockCommands.class, "draw the fencing token of",
			true, READ, FENCE, "token-fence.lua");

	/** Compare-and-delete, announced when marked. */
	public static final LockScript RELEASE = LockScript.of(TokenLockCommands.class, "release", false, READ,
			"token-release.lua");

	/** Compare-and-extend, for renewals and releases that keep the key. */
	public static final LockScript KEEP = LockScript.of(TokenLockCommands.class, "release", false, READ,
			"token-keep.lua");

	/** The protocol's scripts, which a registry loads when it starts. */
	public static final List<LockScript> SCRIPTS = List.of(ACQUIRE, FENCE_DRAW, RELEASE, KEEP);

	/**
	 * {@code token-release.lua} and {@code token-keep.lua}: the key holds another value.
	 */
	private static final long NOT_OURS = 0;

	/** Deleted or kept; nobody had marked it, so nothing was announced. */
	private static final long DONE = 1;

	/** Deleted or kept, and announced on the release channel (a waiter had marked it). */
	private static final long DONE_AND_ANNOUNCED = 2;

	/**
	 * There was no key: deleted already, by an earlier run of this very release (sent
	 * again after a reconnect) or otherwise.
	 */
	private static final long GONE = 3;

	private final long fenceRetentionMillis;

	private final String releaseChannel;

	/**
	 * Create the protocol.
	 * @param gateway the way into Redis
	 * @param fenceRetention how long a fencing counter outlives a lease
	 * @param releaseChannel the channel releases are announced on
	 */
	public TokenLockCommands(RedisGateway gateway, Duration fenceRetention, String releaseChannel) {
		super(gateway);
		this.releaseChannel = releaseChannel;
		this.fenceRetentionMillis = fenceRetention.toMillis();
	}

	/**
	 * Acquire with a plain {@code SET key token NX PX lease}; only when that finds the
	 * key taken does the script follow, which takes the key if it has become free since,
	 * or marks the holder for a waiter, or reports a key of another type (so that
	 * {@code tryLock()} on such a key is an error, not {@code false}).
	 */
	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long sentNanos = System.nanoTime();
		long leaseMillis = lease.toMillis();
		return this.gateway.setIfAbsent(key, ownerToken, leaseMillis)
			.thenCompose((set) -> set
					? CompletableFuture.completedFuture(
							Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, leaseMillis)))
					: acquireCall(key, ownerToken, lease, waits).send(this.gateway));
	}

	@Override
	protected ScriptCall<Attempt> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits) {
		long leaseMillis = lease.toMillis();
		long sentNanos = System.nanoTime();
		return new ScriptCall<>(key, ACQUIRE, List.of(key.redisKey()),
				List.of(ownerToken, Long.toString(leaseMillis), waits ? "1" : "0"), (answer) -> attempt(key, answer,
						() -> Attempt.acquired(new Lease(ownerToken, Lease.NOT_DRAWN, sentNanos, leaseMillis))));
	}

	/**
	 * Read {@code token-acquire.lua}'s answer: {@code {1}} acquired, {@code {2}} left
	 * free (a call that only marks), {@code {0, holder's ttl, marked}} held, {@code {-1,
	 * type}} a key of another type.
	 */
	private static Attempt attempt(LockKey key, Object answer, Supplier<Attempt> acquired) {
		List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> acquired.get();
			case 2 -> Attempt.LEFT_FREE;
			case 0 -> Attempt.held(Replies.longAt(key, reply, 1), Replies.longAt(key, reply, 2) == 1);
			case -1 -> throw Replies.wrongType(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

	@Override
	public CompletableFuture<Attempt> markHolder(LockKey key) {
		// No owner token: nothing is written but the mark.
		return this.gateway.run(ACQUIRE, key, List.of(key.redisKey()), List.of("", "1", "2"))
			.thenApply((answer) -> attempt(key, answer, () -> Attempt.LEFT_FREE));
	}

	@Override
	protected ScriptCall<OptionalLong> fenceCall(LockKey key, Lease lease) {
		return new ScriptCall<>(key, FENCE_DRAW, List.of(key.redisKey(), key.fenceKey()),
				List.of(lease.value(), Long.toString(lease.validityMillis() + this.fenceRetentionMillis)),
				(answer) -> fencingToken(key, answer));
	}

	/**
	 * Read {@code token-fence.lua}'s answer: {@code {1, token}} drawn, {@code {0}} the
	 * key is no longer ours, {@code {-2, value}} a counter key that holds no counter.
	 */
	private static OptionalLong fencingToken(LockKey key, Object answer) {
		List<?> reply = Replies.list(key, answer);
		return switch ((int) Replies.longAt(key, reply, 0)) {
			case 1 -> OptionalLong.of(Replies.longAt(key, reply, 1));
			case 0 -> OptionalLong.empty();
			case -2 -> throw Replies.notFenceCounter(key, Replies.stringAt(key, reply, 1));
			default -> throw Replies.unexpected(key, answer);
		};
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LockKey key, Lease lease) {
		long connections = this.gateway.connectionsOpened();
		return this.gateway.deleteIfEquals(key, lease.value(), this.releaseChannel, RELEASE)
			.thenApply((answer) -> releaseResult(key, answer, connections));
	}

	private ReleaseResult releaseResult(LockKey key, Object answer, long connections) {
		long code = code(key, answer);
		return (code == DONE) ? ReleaseResult.RELEASED
				: (code == DONE_AND_ANNOUNCED) ? ReleaseResult.RELEASED_AND_ANNOUNCED
						: (code == GONE) ? ReleaseResult.GONE : notOursSince(connections);
	}

	@Override
	public CompletableFuture<Boolean> abandon(LockKey key, String ownerToken) {
		// The key holds the owner token itself: the release compares with it.
		return this.gateway.deleteIfEquals(key, ownerToken, this.releaseChannel, RELEASE).thenApply((answer) -> {
			long code = code(key, answer);
			return code == DONE || code == DONE_AND_ANNOUNCED;
		});
	}

	@Override
	public CompletableFuture<ReleaseResult> releaseKeeping(LockKey key, Lease lease, Duration keep) {
		long connections = this.gateway.connectionsOpened();
		return keepAnnounced(key, lease, keep).thenApply((answer) -> releaseResult(key, answer, connections));
	}

	/**
	 * Let the key expire after the given time while it is the lease's, announcing it if a
	 * waiter marked it: a release that keeps the key, and a shortened lease.
	 */
	private CompletableFuture<Object> keepAnnounced(LockKey key, Lease lease, Duration keep) {
		return this.gateway.run(KEEP, key, List.of(key.redisKey()),
				List.of(lease.value(), Long.toString(keep.toMillis()), this.releaseChannel));
	}

	@Override
	public CompletableFuture<List<RenewalResult>> renew(List<LockKey> keys, List<Lease> leases, Duration lease) {
		String leaseMillis = Long.toString(lease.toMillis());
		List<List<String>> calls = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			calls.add(List.of(keys.get(i).redisKey(), leases.get(i).value(), leaseMillis));
		}
		return renewEach(KEEP, 1, calls,
				(i, answer, sentNanos) -> renewal(keys.get(i), leases.get(i), answer, sentNanos, lease));
	}

	/**
	 * Shorten with the compare-and-extend that announces a marked key, as a release that
	 * keeps the key does.
	 */
	@Override
	public CompletableFuture<RenewalResult> shorten(LockKey key, Lease lease, Duration shorter) {
		long sentNanos = System.nanoTime();
		return keepAnnounced(key, lease, shorter)
			.thenApply((answer) -> renewal(key, lease, answer, sentNanos, shorter));
	}

	/** A renewal that finds no key cannot go on holding it. */
	private static RenewalResult renewal(LockKey key, Lease current, Object answer, long sentNanos, Duration lease) {
		long code = code(key, answer);
		return (code == NOT_OURS || code == GONE) ? RenewalResult.rejected(ReleaseResult.NOT_OURS) : RenewalResult
			.renewed(new Lease(current.value(), current.fencingToken(), sentNanos, lease.toMillis()));
	}

	/**
	 * Read the answer of {@code token-release.lua} or {@code token-keep.lua}: one of the
	 * four codes both give.
	 */
	private static long code(LockKey key, Object answer) {
		return Replies.code(key, answer, NOT_OURS, DONE, DONE_AND_ANNOUNCED, GONE);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(LockKey key) {
		return this.gateway.exists(key);
	}

	@Override
	public CompletableFuture<String> ownerToken(LockKey key) {
		return this.gateway.value(key).thenApply(WaiterMark::removedFrom);
	}

	@Override
	public boolean marksWaiters() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> waiterMarked(LockKey key, Lease lease) {
		String marked = WaiterMark.on(lease.value());
		return this.gateway.value(key).thenApply(marked::equals);
	}

	@Override
	public boolean reChecksQuickly() {
		return false;
	}

}
