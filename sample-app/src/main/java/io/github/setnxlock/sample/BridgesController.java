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

import java.util.Map;

import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the bridges' examples are doing: the ShedLock job's runs, and whether this
 * instance leads {@link LeaderConfiguration#ROLE}.
 *
 * @author setnx-lock authors
 */
@RestController
class BridgesController {

	private final CleanupJob cleanup;

	private final LockRegistryLeaderInitiator leadership;

	BridgesController(CleanupJob cleanup, LockRegistryLeaderInitiator leadership) {
		this.cleanup = cleanup;
		this.leadership = leadership;
	}

	@GetMapping("/jobs/cleanup")
	CleanupJob.Runs cleanup() {
		return this.cleanup.runs();
	}

	@GetMapping("/leader")
	Map<String, Object> leader() {
		return Map.of("role", LeaderConfiguration.ROLE, "leader", this.leadership.getContext().isLeader());
	}

}
