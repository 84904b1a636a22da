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

import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/**
 * Settings of the actuator 'locks' endpoint.
 *
 * @author setnx-lock authors
 */
public class EndpointProperties {

	private final ForceRelease forceRelease = new ForceRelease();

	/**
	 * Return the {@code setnx.lock.endpoint.force-release.*} settings.
	 * @return the settings
	 */
	public ForceRelease getForceRelease() {
		return this.forceRelease;
	}

	/**
	 * Settings of the endpoint's force-release operation.
	 */
	public static class ForceRelease {

		/**
		 * Whether the 'locks' endpoint offers its delete operation, which releases any
		 * lock whoever holds it, by making the endpoint's default access unrestricted.
		 * Secure the endpoint before turning it on.
		 */
		private boolean enabled;

		/**
		 * Return the value of {@code setnx.lock.endpoint.force-release.enabled}.
		 * @return the value
		 */
		@DeprecatedConfigurationProperty(replacement = "management.endpoint.locks.access",
				reason = "Spring Boot's endpoint access governs the force-release operation", since = "0.1.0")
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Set the value of {@code setnx.lock.endpoint.force-release.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
