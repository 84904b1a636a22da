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
 * The two lock protocols, token and timestamp, and the replication guard around either:
 * what each step of the cycle (acquire, renew, release, undo) sends through the gateway
 * and what its answer means. Stateless; depends on the gateway only.
 * <p>
 * Internal: no compatibility promise. Applications use {@code io.github.setnxlock} and
 * {@code io.github.setnxlock.redis}.
 */
package io.github.setnxlock.redis.protocol;
