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

package io.github.setnxlock.redis;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;

/**
 * Tells the registry's {@link LockListener}s what happened, each in turn, so that one
 * that fails neither stops the others nor the lock operation that found out.
 *
 * @author setnx-lock authors
 */
final class LockEvents {

	private static final Log logger = LogFactory.getLog(LockEvents.class);

	private final List<LockListener> listeners;

	LockEvents(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	void lockLost(LockLostEvent event) {
		logger.warn("Lock '" + event.key() + "'" + (event.name().isEmpty() ? "" : " (" + event.name() + ")")
				+ " held by thread '" + event.holder() + "' was lost: " + event.reason());
		for (LockListener listener : this.listeners) {
			try {
				listener.lockLost(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener " + listener + " failed on " + event, ex);
			}
		}
	}

}
