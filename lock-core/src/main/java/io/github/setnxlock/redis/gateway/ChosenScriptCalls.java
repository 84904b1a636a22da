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
package io.github.setnxlock.redis.gateway;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * {@link ScriptCalls} chosen on the first call, so that a registry can be made on a
 * template whose connection factory comes later. The choice is kept once the template has
 * a factory.
 *
 * @author setnx-lock authors
 */
final class ChosenScriptCalls implements ScriptCalls {

	private final StringRedisTemplate redis;

	private final CommandRunner runner;

	private volatile ScriptCalls chosen;

	ChosenScriptCalls(StringRedisTemplate redis, CommandRunner runner) {
		this.redis = redis;
		this.runner = runner;
	}

	@Override
	public CompletableFuture<Object> run(LockKey key, String action, RedisScript<?> script, List<String> keys,
			List<String> args) {
		return calls().run(key, action, script, keys, args);
	}

	@Override
	public CompletableFuture<Object> deleteIfEquals(LockKey key, String value, String channel, RedisScript<?> script) {
		return calls().deleteIfEquals(key, value, channel, script);
	}

	@Override
	public CompletableFuture<Boolean> setIfAbsent(LockKey key, String value, long leaseMillis) {
		return calls().setIfAbsent(key, value, leaseMillis);
	}

	@Override
	public CompletableFuture<String> get(LockKey key) {
		return calls().get(key);
	}

	@Override
	public boolean connect() {
		return calls().connect();
	}

	private ScriptCalls calls() {
		ScriptCalls calls = this.chosen;
		if (calls == null) {
			synchronized (this) {
				calls = this.chosen;
				if (calls == null) {
					calls = ScriptCalls.choose(this.redis, this.runner);
					if (this.redis.getConnectionFactory() != null) {
						this.chosen = calls;
					}
				}
			}
		}
		return calls;
	}

}
