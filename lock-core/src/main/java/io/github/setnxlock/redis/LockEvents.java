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
import java.util.function.Consumer;

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

	void acquisitionEnded(LockListener.Acquisition acquisition) {
		if (logger.isDebugEnabled()) {
			logger.debug("Acquisition of lock '" + acquisition.key() + "' ended " + acquisition.result() + " after "
					+ acquisition.waited() + (acquisition.tookOver() ? ", taking over an expired claim" : ""));
		}
		if (acquisition.tookOver()) {
			logger.warn("Lock '" + acquisition.key() + "'" + named(acquisition.name())
					+ " was taken over from a holder whose claim had expired");
		}
		each((listener) -> listener.acquisitionEnded(acquisition), acquisition);
	}

	void released(LockListener.Release release) {
		if (logger.isDebugEnabled()) {
			logger.debug("Lock '" + release.key() + "' released after " + release.held());
		}
		each((listener) -> listener.released(release), release);
	}

	void renewalEnded(LockListener.Renewal renewal) {
		each((listener) -> listener.renewalEnded(renewal), renewal);
	}

	private void each(Consumer<LockListener> call, Object event) {
		for (LockListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener " + listener + " failed on " + event, ex);
			}
		}
	}

	private static String named(String name) {
		return name.isEmpty() ? "" : " (" + name + ")";
	}

	void lockLost(LockLostEvent event) {
		logger.warn("Lock '" + event.key() + "'" + named(event.name()) + " held by thread '" + event.holder()
				+ "' was lost: " + event.reason());
		each((listener) -> listener.lockLost(event), event);
	}

}
