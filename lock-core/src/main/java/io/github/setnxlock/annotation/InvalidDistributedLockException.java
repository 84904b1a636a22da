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

package io.github.setnxlock.annotation;

/**
 * Thrown at start-up for a {@link DistributedLock} that cannot work as written: a key
 * that names a parameter the method does not have, a method a Spring proxy cannot
 * intercept, a duration that is not one, a fallback that does not fit. Its message names
 * the method and the problem; {@link #getAction()} says what to change, which the starter
 * shows as the "Action" of Spring Boot's failure report.
 *
 * @author setnx-lock authors
 */
public class InvalidDistributedLockException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private static final String DEFAULT_ACTION = "Correct @DistributedLock on that method: its attributes are"
			+ " described in https://github.com/setnxlock/setnx-lock/blob/main/docs/annotation.md";

	/** The annotated method, as the message shows it. */
	private final String method;

	/** What is wrong with its annotation. */
	private final String problem;

	/** What to change. */
	private final String action;

	InvalidDistributedLockException(String method, IllegalArgumentException problem) {
		super("@DistributedLock on " + method + ": " + problem.getMessage(), problem);
		this.method = method;
		this.problem = problem.getMessage();
		this.action = (problem instanceof Problem withAction) ? withAction.action : DEFAULT_ACTION;
	}

	/**
	 * Return the annotated method.
	 * @return its class, name and parameter types
	 */
	public String getMethod() {
		return this.method;
	}

	/**
	 * Return what is wrong with the annotation.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

	/**
	 * Return what to change so that the application starts.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

	/**
	 * A problem whose remedy is known where it is found.
	 */
	static final class Problem extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		private final String action;

		Problem(String message, String action) {
			super(message);
			this.action = action;
		}

	}

}
