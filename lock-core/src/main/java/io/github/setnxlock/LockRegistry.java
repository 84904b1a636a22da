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

package io.github.setnxlock;

/**
 * Hands out distributed locks by key.
 * <p>
 * The same key gives a lock on the same Redis key for every instance of every application
 * that shares the Redis server and the registry's key prefix, so two processes that call
 * {@code obtain("orders:42")} contend for one lock. Locks are cheap handles: obtaining
 * one does not touch Redis, and two handles for the same key share their state inside one
 * registry (a thread may lock through one handle and unlock through another).
 *
 * @author setnx-lock authors
 * @see LeasedLock
 */
public interface LockRegistry {

	/**
	 * Return the lock for the given key.
	 * @param key the lock's key, without the registry's prefix; neither {@code null} nor
	 * blank
	 * @return the lock (never {@code null})
	 * @throws IllegalArgumentException if the key is {@code null} or blank
	 */
	LeasedLock obtain(String key);

	/**
	 * Return the lock for the given key, with a logical name that listeners, metrics and
	 * logs use instead of the key. Give locks whose keys vary (one per order, say) one
	 * name, such as {@code "orders"}, so that what is reported by name stays bounded.
	 * @param key the lock's key, without the registry's prefix; neither {@code null} nor
	 * blank
	 * @param name the lock's logical name; not {@code null}, may be empty
	 * @return the lock (never {@code null})
	 * @throws IllegalArgumentException if the key is {@code null} or blank, or the name
	 * is {@code null}
	 */
	LeasedLock obtain(String key, String name);

}
