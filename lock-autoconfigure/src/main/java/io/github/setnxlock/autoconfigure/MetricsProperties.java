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

/**
 * Settings of the lock meters.
 *
 * @author setnx-lock authors
 */
public class MetricsProperties {

	/**
	 * Whether to record the lock meters that observations do not give (setnx.lock.active
	 * and the counters) when Micrometer is present. The wait and hold timers are those of
	 * the lock observations.
	 */
	private boolean enabled = true;

	/**
	 * Return the value of {@code setnx.lock.metrics.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set the value of {@code setnx.lock.metrics.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
