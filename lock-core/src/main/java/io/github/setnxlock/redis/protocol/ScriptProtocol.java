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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.LockScript;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * A protocol whose Redis calls are scripts the {@link ReplicationGuard} can send with a
 * {@code WAIT} behind them: the acquisition (as one script), and the fencing draw where
 * it is a call of its own. Internal API.
 *
 * @author setnx-lock authors
 */
public abstract class ScriptProtocol implements LockCommands {

	/**
	 * The reads every lock script starts with, for {@link LockScript#of}.
	 */
	public static final String READ = "/io/github/setnxlock/redis/protocol/read.lua";

	/**
	 * The fencing counter's next token, for the scripts that draw one.
	 */
	public static final String FENCE = "/io/github/setnxlock/redis/protocol/fence.lua";

	/** The way into Redis. */
	protected final RedisGateway gateway;

	/**
	 * Create a protocol on a gateway.
	 * @param gateway the way into Redis
	 */
	protected ScriptProtocol(RedisGateway gateway) {
		this.gateway = gateway;
	}

	/**
	 * Prepare an acquisition as one script.
	 * @param key the lock's keys
	 * @param ownerToken the random token of this acquisition
	 * @param lease how long the hold lasts
	 * @param waits whether the caller waits for the holder's release
	 * @return the call
	 */
	protected abstract ScriptCall<Attempt> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits);

	/**
	 * Prepare the draw of a hold's fencing token, or return {@code null} when the
	 * acquisition drew it.
	 * @param key the lock's keys
	 * @param lease the hold's current lease
	 * @return the call, or {@code null}
	 */
	protected ScriptCall<OptionalLong> fenceCall(LockKey key, Lease lease) {
		return null;
	}

	/**
	 * Return what a release that found another value in the key means: a loss, unless the
	 * client opened a connection since the release was sent. Lettuce sends a command
	 * again on the new connection when the old one broke before its answer came, and the
	 * second run finds the key the first run deleted, and perhaps another client's key
	 * taken since: then nothing shows a loss.
	 * @param connectionsBefore {@link RedisGateway#connectionsOpened()} before the
	 * release was sent
	 * @return {@link ReleaseResult#NOT_OURS} or {@link ReleaseResult#GONE}
	 */
	protected ReleaseResult notOursSince(long connectionsBefore) {
		return (this.gateway.connectionsOpened() == connectionsBefore) ? ReleaseResult.NOT_OURS : ReleaseResult.GONE;
	}

	/**
	 * Renew several holds in one batch of a script's calls, each answer read on its own,
	 * so that an answer that cannot be read fails its own renewal only.
	 * @param script the renewal script
	 * @param keyCount how many of each call's arguments are keys
	 * @param calls each call's keys and arguments
	 * @param reading what an answer means, given the hold's index, the answer and when
	 * the batch was sent
	 * @return the renewals' results, in the order of the keys
	 */
	protected CompletableFuture<List<RenewalResult>> renewEach(LockScript script, int keyCount,
			List<List<String>> calls, RenewalReading reading) {
		long sentNanos = System.nanoTime();
		return this.gateway.runBatch(script, keyCount, calls).thenApply((answers) -> {
			List<RenewalResult> results = new ArrayList<>(answers.size());
			for (int i = 0; i < answers.size(); i++) {
				try {
					results.add(reading.read(i, answers.get(i), sentNanos));
				}
				catch (RuntimeException ex) {
					results.add(RenewalResult.failed(ex));
				}
			}
			return results;
		});
	}

	/**
	 * What one answer of a batch of renewals means.
	 */
	@FunctionalInterface
	protected interface RenewalReading {

		/**
		 * Read an answer.
		 * @param index the hold's index in the batch
		 * @param answer what the script answered
		 * @param sentNanos when the batch was sent
		 * @return the renewal's result
		 */
		RenewalResult read(int index, Object answer, long sentNanos);

	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return acquireCall(key, ownerToken, lease, waits).send(this.gateway);
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		ScriptCall<OptionalLong> draw = fenceCall(key, lease);
		return (draw != null) ? draw.send(this.gateway)
				: CompletableFuture.completedFuture(OptionalLong.of(lease.fencingToken()));
	}

}
