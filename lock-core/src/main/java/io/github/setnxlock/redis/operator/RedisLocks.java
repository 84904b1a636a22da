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

package io.github.setnxlock.redis.operator;

import java.util.List;

/**
 * The locks held in Redis under a registry's key prefix, by every instance, as
 * {@link LockOperations#heldInRedis(int)} found them.
 *
 * @param locks the locks found, by key
 * @param complete whether every key under the prefix was looked at; {@code false} when
 * the limit was reached first, or the list could not be made ({@code problem} says why)
 * @param problem why the list is incomplete or empty when that is not the limit (no key
 * prefix, Redis out of reach), or {@code null}
 * @author setnx-lock authors
 */
public record RedisLocks(List<LockState> locks, boolean complete, String problem) {

}
