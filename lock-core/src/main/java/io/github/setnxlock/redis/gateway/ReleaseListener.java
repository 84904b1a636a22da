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

/**
 * Hears what a release subscription ({@link RedisGateway#subscribe}) receives. Internal
 * API.
 * <p>
 * Called on the subscription's own thread, one message after the other: an implementation
 * only signals, it never blocks.
 *
 * @author setnx-lock authors
 */
public interface ReleaseListener {

	/**
	 * A lock key was released, or freed (a keyspace notification).
	 * @param redisKey the lock key in Redis
	 */
	void released(String redisKey);

	/**
	 * The subscription was (re)established or lost: releases may have gone unheard, so
	 * every waiter should look again.
	 */
	void mayHaveMissed();

}
