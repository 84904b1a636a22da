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
package io.github.setnxlock.redis;

import io.github.setnxlock.test.OnValkey;

/**
 * The native release on Valkey 9 and later: {@code DELIFEQ key value}.
 *
 * @author setnx-lock authors
 */
@OnValkey
class ValkeyNativeReleaseTests extends AbstractNativeReleaseTests {

	@Override
	protected String command() {
		return "delifeq";
	}

}
