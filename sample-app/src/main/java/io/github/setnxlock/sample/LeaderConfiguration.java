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
package io.github.setnxlock.sample;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A leader role, the Spring Integration way: a {@link LockRegistryLeaderInitiator} on the
 * Spring Integration {@link LockRegistry} the starter provides, so the role's lock is a
 * setnx-lock lock ({@code sample:lock:sample-leader}): one instance leads at a time, and
 * another takes over within a lease when it stops or dies.
 *
 * @author setnx-lock authors
 */
@Configuration(proxyBeanMethods = false)
class LeaderConfiguration {

	static final String ROLE = "sample-leader";

	@Bean
	LockRegistryLeaderInitiator leaderInitiator(LockRegistry<?> locks) {
		return new LockRegistryLeaderInitiator(locks, new DefaultCandidate(ROLE + "-candidate", ROLE));
	}

}
