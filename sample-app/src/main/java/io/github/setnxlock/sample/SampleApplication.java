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

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A small web application that shows every way of using setnx-lock, so a newcomer can
 * watch the locks work (and watch unguarded code lose updates) with one command and no
 * Redis of their own.
 * <ul>
 * <li>{@link AccountService}: {@code @DistributedLock} with a SpEL key, next to an
 * unguarded twin that loses updates;</li>
 * <li>{@link StockService}: a {@link io.github.setnxlock.LockRegistry} used by hand, with
 * a fencing token checked by the data it protects ({@link StockLedger});</li>
 * <li>{@link ReportJob}: a {@code @Scheduled} job that one instance runs per period, and
 * a manual trigger with a fallback;</li>
 * <li>{@link CleanupJob} and {@link LeaderConfiguration}: ShedLock's
 * {@code @SchedulerLock} and Spring Integration's leader initiator, on setnx-lock through
 * the starter's bridges.</li>
 * </ul>
 * Redis comes from {@link EmbeddedRedisEnvironmentPostProcessor} unless
 * {@code sample.redis.embedded=false}.
 *
 * @author setnx-lock authors
 */
@SpringBootApplication
@EnableScheduling
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
