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

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.setnxlock.annotation.InvalidDistributedLockException;

/**
 * Turns a {@link io.github.setnxlock.annotation.DistributedLock} that cannot work as
 * written into Spring Boot's "APPLICATION FAILED TO START" report: what is wrong with
 * which method, and what to change, instead of the end of a chain of bean creation
 * failures.
 *
 * @author setnx-lock authors
 */
class InvalidDistributedLockFailureAnalyzer extends AbstractFailureAnalyzer<InvalidDistributedLockException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidDistributedLockException cause) {
		return new FailureAnalysis(
				"@DistributedLock on " + cause.getMethod() + " cannot work as written: " + cause.getProblem() + ".",
				cause.getAction(), cause);
	}

}
