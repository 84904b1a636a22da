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

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.setnxlock.LockAccessException;
import io.github.setnxlock.LockLostException;
import io.github.setnxlock.LockNotAcquiredException;

/**
 * Turns the library's exceptions into answers a client can act on: retry later when the
 * lock was busy or Redis unreachable, and an error when a lock was lost during the work,
 * because then the work may not have been exclusive.
 *
 * @author setnx-lock authors
 */
@RestControllerAdvice
class SampleExceptionHandler {

	@ExceptionHandler(LockNotAcquiredException.class)
	ProblemDetail lockBusy(LockNotAcquiredException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Lock '" + ex.getLockName() + "' was busy for " + ex.getWaitTime() + "; try again");
	}

	@ExceptionHandler({ LockAccessException.class, DataAccessResourceFailureException.class })
	ProblemDetail redisUnavailable(RuntimeException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "Redis is unavailable; try again");
	}

	@ExceptionHandler(LockLostException.class)
	ProblemDetail lockLost(LockLostException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
				"The lock's lease ended before the work finished, so the work may not have been exclusive: "
						+ ex.getMessage());
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ProblemDetail badRequest(IllegalArgumentException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
	}

}
