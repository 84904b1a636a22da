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

import java.time.Duration;

/**
 * The contract suite under the timestamp protocol with timestamps in seconds and no key
 * prefix, as the documented pattern writes them.
 *
 * @author setnx-lock authors
 */
class TimestampSecondsLockContractTests extends AbstractLockContractTests {

	@Override
	protected SetnxLockSettings settings() {
		return SetnxLockSettings.builder()
			.protocol(LockProtocol.TIMESTAMP)
			.keyPrefix("")
			.timestampUnit(TimestampUnit.SECONDS)
			.build();
	}

	@Override
	protected Duration shortLease() {
		// Whole seconds: the stored expiry is now + 1 + 1, so the hold lasts 1 to 2
		// seconds.
		return Duration.ofSeconds(1);
	}

}
