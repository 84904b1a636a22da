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

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@link ScriptCalls} of a gateway, chosen on its first call rather than when the
 * gateway is made, so that a gateway can be made on a template whose factory comes later;
 * the choice is kept once the template has a factory.
 *
 * @author setnx-lock authors
 */
final class ScriptCallsChoice {

	private final StringRedisTemplate redis;

	private final CommandRunner runner;

	private volatile ScriptCalls chosen;

	ScriptCallsChoice(StringRedisTemplate redis, CommandRunner runner) {
		this.redis = redis;
		this.runner = runner;
	}

	ScriptCalls get() {
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
