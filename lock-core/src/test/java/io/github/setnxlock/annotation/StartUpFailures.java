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

import java.util.ArrayList;
import java.util.List;

/**
 * What the tests of start-up failures read: the messages of an exception and its causes,
 * since the one that names the method sits somewhere down the chain of Spring's bean
 * creation exceptions.
 *
 * @author setnx-lock authors
 */
final class StartUpFailures {

	private StartUpFailures() {
	}

	static List<String> causes(Throwable failure) {
		List<String> messages = new ArrayList<>();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.add(String.valueOf(cause.getMessage()));
		}
		return messages;
	}

}
