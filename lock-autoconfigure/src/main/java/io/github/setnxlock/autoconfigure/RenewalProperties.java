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

import java.time.Duration;

/**
 * Settings of the lease renewal watchdog.
 *
 * @author setnx-lock authors
 */
public class RenewalProperties {

	/**
	 * Whether locks taken without a lease of their own are renewed every third of the
	 * lease while held, so a live holder keeps its lock however long it works.
	 */
	private boolean enabled = true;

	/**
	 * Longest time a renewed lock may be held: past it, renewals stop and the lock ends
	 * with its lease. No limit when unset.
	 */
	private Duration maxHold;

	/**
	 * Return the value of {@code setnx.lock.renewal.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set the value of {@code setnx.lock.renewal.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the value of {@code setnx.lock.renewal.max-hold}.
	 * @return the value
	 */
	public Duration getMaxHold() {
		return this.maxHold;
	}

	/**
	 * Set the value of {@code setnx.lock.renewal.max-hold}.
	 * @param maxHold the value
	 */
	public void setMaxHold(Duration maxHold) {
		this.maxHold = maxHold;
	}

}
