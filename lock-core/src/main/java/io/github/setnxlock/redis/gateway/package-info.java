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
 * The Redis gateway: the one way into Redis of the lock engine, the protocols and the
 * operator API (scripts and their reply types, batching, the server's own
 * compare-and-delete, the release subscription), and the only code that knows which
 * client runs underneath. Depends on nothing else of the library but its API.
 * <p>
 * Internal: no compatibility promise. Applications use {@code io.github.setnxlock} and
 * {@code io.github.setnxlock.redis}.
 */
package io.github.setnxlock.redis.gateway;
