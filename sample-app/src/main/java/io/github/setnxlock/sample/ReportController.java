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

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * HTTP access to {@link ReportJob}: read the latest report, or ask for a run now (409
 * with the latest report when it is running or has just run).
 *
 * @author setnx-lock authors
 */
@RestController
@RequestMapping("/jobs/report")
class ReportController {

	private final ReportJob job;

	ReportController(ReportJob job) {
		this.job = job;
	}

	@GetMapping
	ReportJob.Report latest() {
		return this.job.latest();
	}

	@PostMapping("/run")
	ResponseEntity<ReportJob.Run> run() {
		ReportJob.Run run = this.job.runNow();
		return ResponseEntity.status(run.ran() ? HttpStatus.OK : HttpStatus.CONFLICT).body(run);
	}

}
