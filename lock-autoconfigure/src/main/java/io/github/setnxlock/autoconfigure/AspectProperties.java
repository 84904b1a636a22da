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
 * Settings of the @DistributedLock advice.
 *
 * @author setnx-lock authors
 */
public class AspectProperties {

	/**
	 * Whether to run @DistributedLock methods under their locks.
	 */
	private boolean enabled = true;

	/**
	 * Order of the @DistributedLock advice among other advice; the default puts it
	 * outside @Transactional of the default order.
	 */
	private int order = io.github.setnxlock.annotation.DistributedLockAdvisor.DEFAULT_ORDER;

	/**
	 * Return the value of {@code setnx.lock.aspect.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set the value of {@code setnx.lock.aspect.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the value of {@code setnx.lock.aspect.order}.
	 * @return the value
	 */
	public int getOrder() {
		return this.order;
	}

	/**
	 * Set the value of {@code setnx.lock.aspect.order}.
	 * @param order the value
	 */
	public void setOrder(int order) {
		this.order = order;
	}

}
