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
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * A protocol whose Redis calls are scripts the {@link ReplicationGuard} can send with a
 * {@code WAIT} behind them: the acquisition (as one script), and the fencing draw where
 * it is a call of its own.
 *
 * @author setnx-lock authors
 */
abstract sealed class ScriptProtocol implements LockCommands permits TokenLockCommands, TimestampLockCommands {

	final RedisGateway gateway;

	ScriptProtocol(RedisGateway gateway) {
		this.gateway = gateway;
	}

	/**
	 * Prepare an acquisition as one script.
	 */
	abstract ScriptCall<?, Attempt> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits);

	/**
	 * Prepare the draw of a hold's fencing token, or return {@code null} when the
	 * acquisition drew it.
	 */
	ScriptCall<?, OptionalLong> fenceCall(LockKey key, Lease lease) {
		return null;
	}

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return acquireCall(key, ownerToken, lease, waits).send(this.gateway);
	}

	@Override
	public CompletableFuture<OptionalLong> fencingToken(LockKey key, Lease lease) {
		ScriptCall<?, OptionalLong> draw = fenceCall(key, lease);
		return (draw != null) ? draw.send(this.gateway)
				: CompletableFuture.completedFuture(OptionalLong.of(lease.fencingToken()));
	}

}
