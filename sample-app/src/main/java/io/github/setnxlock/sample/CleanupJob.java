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

import java.time.Instant;
import java.util.List;

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A job written for ShedLock, unchanged: {@code @SchedulerLock} on a {@code @Scheduled}
 * method. The starter's ShedLock {@code LockProvider} makes it lock through setnx-lock
 * (key {@code sample:lock:shedlock:cleanup}, meters named {@code cleanup}), so one
 * instance runs it per period and none again within its {@code lockAtLeastFor}.
 *
 * @author setnx-lock authors
 */
@Component
@EnableSchedulerLock(defaultLockAtMostFor = "5m")
public class CleanupJob {

	static final String RUNS_KEY = "sample:jobs:cleanup";

	private final StringRedisTemplate redis;

	CleanupJob(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Clean up, if no instance has in the last 30 seconds; counts its runs in Redis.
	 */
	@Scheduled(fixedRateString = "${sample.jobs.cleanup-period}", initialDelayString = "${sample.jobs.cleanup-period}")
	@SchedulerLock(name = "cleanup", lockAtMostFor = "5m", lockAtLeastFor = "30s")
	public void run() {
		this.redis.opsForHash().increment(RUNS_KEY, "runs", 1);
		this.redis.opsForHash().put(RUNS_KEY, "lastRunAt", Instant.now().toString());
	}

	/**
	 * Return how many times the job ran, on all instances, and when it last did.
	 * @return the runs and the time of the last one, or {@code null}
	 */
	public Runs runs() {
		List<Object> values = this.redis.opsForHash().multiGet(RUNS_KEY, List.of("runs", "lastRunAt"));
		return new Runs((values.get(0) != null) ? Long.parseLong((String) values.get(0)) : 0, (String) values.get(1));
	}

	/**
	 * How many times the cleanup ran.
	 *
	 * @param runs the runs, on all instances
	 * @param lastRunAt when it last ran, or {@code null}
	 */
	public record Runs(long runs, String lastRunAt) {

	}

}
