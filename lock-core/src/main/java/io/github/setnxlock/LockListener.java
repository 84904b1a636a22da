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
 * Hears what happens to the locks of a registry, for metrics, logs and alerts. Every
 * method has a no-op default, so a listener implements only what it needs.
 * <p>
 * Methods are called on the thread that found out, which may be the registry's renewal
 * thread: keep them short and non-blocking. A listener that throws is logged and ignored;
 * it never stops a lock from being released.
 *
 * @author setnx-lock authors
 */
public interface LockListener {

	/**
	 * A hold was lost before its holder released it: the work done under it may not have
	 * been exclusive.
	 * @param event what was lost, and how
	 */
	default void lockLost(LockLostEvent event) {
	}

}
