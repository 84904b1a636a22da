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

import org.junit.jupiter.api.Test;

import org.springframework.expression.spel.standard.SpelExpressionParser;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The variables a key expression may read: the parameters by name and by index,
 * {@code #root} and {@code #this}, and what the expression assigns itself.
 *
 * @author setnx-lock authors
 */
class KeyVariablesTests {

	private static final String[] ID_AND_LINE = { "id", "line" };

	@Test
	void parametersByNameAndIndexAndTheRootAreKnown() {
		assertThatNoException().isThrownBy(() -> check("#id + ':' + #line", 2, ID_AND_LINE));
		assertThatNoException().isThrownBy(() -> check("#p0 + #a1 + #root.args[0]", 2, ID_AND_LINE));
		assertThatNoException().isThrownBy(() -> check("#root.args.?[#this != null].size()", 2, ID_AND_LINE));
		assertThatNoException().isThrownBy(() -> check("@orders.next() + 'x'", 0, new String[0]));
	}

	@Test
	void aVariableTheExpressionAssignsIsKnownWhereverItIsRead() {
		assertThatNoException().isThrownBy(() -> check("(#x = #id) + #x", 2, ID_AND_LINE));
	}

	@Test
	void anUnknownNameIsRefusedWithTheValidOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> check("#orderId + ':' + #line", 2, ID_AND_LINE))
			.withMessage("key '#orderId + ':' + #line' refers to #orderId, which the method does not have;"
					+ " the variables are #id, #line, #p0, #p1, #a0, #a1, #root, #this");
	}

	@Test
	void everyUnknownNameIsNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> check("#orderId + #p2 + #orderId", 2, ID_AND_LINE))
			.withMessageStartingWith("key '#orderId + #p2 + #orderId' refers to #orderId, #p2, which");
	}

	@Test
	void withoutParametersOnlyTheRootIsThere() {
		assertThatIllegalArgumentException().isThrownBy(() -> check("#id", 0, new String[0]))
			.withMessage("key '#id' refers to #id, which the method does not have; the variables are #root, #this");
	}

	@Test
	void withoutParameterNamesOnlyIndicesAreKnownAndTheMessageSaysWhy() {
		assertThatNoException().isThrownBy(() -> check("#p0 + #a1", 2, null));
		assertThatIllegalArgumentException().isThrownBy(() -> check("#id", 2, null))
			.withMessage("key '#id' refers to #id, which the method does not have; the variables are"
					+ " #p0, #p1, #a0, #a1, #root, #this (the parameters' names are not known, as the class was"
					+ " compiled without -parameters, so they can be read only by index)");
		assertThatIllegalArgumentException().isThrownBy(() -> check("#p2", 2, null))
			.withMessageStartingWith("key '#p2' refers to #p2, which the method does not have;")
			.withMessageContaining("compiled without -parameters");
	}

	private static void check(String key, int parameterCount, String[] parameterNames) {
		KeyVariables.check(new SpelExpressionParser().parseExpression(key), key, parameterCount, parameterNames);
	}

}
