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

package io.github.setnxlock.autoconfigure;

import org.springframework.context.ApplicationEventPublisher;

import io.github.setnxlock.LockListener;
import io.github.setnxlock.LockLostEvent;

/**
 * Publishes what the registry reports as application events, so that an
 * {@code @EventListener} method taking a {@link LockLostEvent} hears about lost locks.
 *
 * @author setnx-lock authors
 */
public class ApplicationEventLockListener implements LockListener {

	private final ApplicationEventPublisher publisher;

	/**
	 * Create a listener that publishes to the given publisher.
	 * @param publisher the application's event publisher
	 */
	public ApplicationEventLockListener(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void lockLost(LockLostEvent event) {
		this.publisher.publishEvent(event);
	}

}
