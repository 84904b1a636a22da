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
import java.util.concurrent.CompletableFuture;

import io.github.setnxlock.redis.gateway.LockKey;
import io.github.setnxlock.redis.gateway.RedisGateway;

/**
 * A protocol whose acquisition is one script, prepared as an {@link AcquireCall}.
 *
 * @author setnx-lock authors
 */
abstract sealed class ScriptProtocol implements LockCommands permits TokenLockCommands, TimestampLockCommands {

	final RedisGateway gateway;

	ScriptProtocol(RedisGateway gateway) {
		this.gateway = gateway;
	}

	abstract AcquireCall<?> acquireCall(LockKey key, String ownerToken, Duration lease, boolean waits);

	@Override
	public CompletableFuture<Attempt> acquire(LockKey key, String ownerToken, Duration lease, boolean waits) {
		return acquireCall(key, ownerToken, lease, waits).send(this.gateway);
	}

}
