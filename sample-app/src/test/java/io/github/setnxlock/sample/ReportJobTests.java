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

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduled report on a short period: it runs, and it skips its periods while someone
 * else holds its lock, as it would while another instance runs it.
 *
 * @author setnx-lock authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.jobs.report-period=200ms", "sample.jobs.report-hold-at-least=100ms" })
class ReportJobTests {

	@LocalServerPort
	private int port;

	@Autowired
	private LockRegistry locks;

	private SampleHttp http;

	@BeforeEach
	void client() {
		this.http = new SampleHttp(this.port);
	}

	@Test
	void scheduledReportRunsEveryPeriod() {
		long before = runs();
		await().atMost(Duration.ofSeconds(10)).until(() -> runs() >= before + 3);
		assertThat(this.http.get("/jobs/report").<String>json("$.lastTrigger")).isEqualTo("schedule");
	}

	@Test
	void scheduledReportSkipsWhileAnotherHolderHasItsLock() throws Exception {
		LeasedLock other = this.locks.obtain(ReportJob.LOCK_NAME);
		assertThat(other.tryLock(Duration.ofSeconds(5))).isTrue();
		long held;
		try {
			held = runs();
			// Five periods.
			Thread.sleep(1000);
			assertThat(runs()).isEqualTo(held);
		}
		finally {
			other.unlock();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> runs() > held);
	}

	private long runs() {
		return this.http.get("/jobs/report").number("$.runs");
	}

}
