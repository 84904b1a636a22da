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

/**
 * The timestamp protocol of the Redis {@code SETNX} documentation: its commands, its Lua
 * scripts, and the reading of their answers straight into the engine's values. Depends on
 * {@code protocol} and the gateway.
 * <p>
 * Internal: no compatibility promise. Applications use {@code io.github.setnxlock} and
 * {@code io.github.setnxlock.redis}.
 */
package io.github.setnxlock.redis.timestamp;
