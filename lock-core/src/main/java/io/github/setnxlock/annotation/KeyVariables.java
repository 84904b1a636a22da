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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * Checks that the variables a key expression reads are ones its evaluation offers: the
 * method's parameters by name (when the class keeps their names, as with
 * {@code -parameters}) and by index ({@code #p0}, {@code #a0}), and {@code #root} and
 * {@code #this}. Any other variable would be {@code null} at every call, so a typo such
 * as {@code #orderId} for a parameter {@code id} is refused when the bean is created
 * rather than at the first call.
 *
 * @author setnx-lock authors
 */
final class KeyVariables {

	private KeyVariables() {
	}

	/**
	 * Check the variables of a parsed key expression.
	 * @param key the parsed expression
	 * @param keyText its text, for the message
	 * @param parameterCount how many parameters the method has
	 * @param parameterNames their names, or {@code null} when the class does not keep
	 * them
	 * @throws IllegalArgumentException naming the unknown variables and listing the valid
	 * ones
	 */
	static void check(Expression key, String keyText, int parameterCount, String[] parameterNames) {
		if (!(key instanceof SpelExpression spel)) {
			return;
		}
		Set<String> read = new LinkedHashSet<>();
		Set<String> assigned = new LinkedHashSet<>();
		collect(spel.getAST(), read, assigned);
		List<String> valid = valid(parameterCount, parameterNames);
		List<String> unknown = new ArrayList<>();
		for (String name : read) {
			if (!assigned.contains(name) && !valid.contains(name)) {
				unknown.add("#" + name);
			}
		}
		if (unknown.isEmpty()) {
			return;
		}
		String message = "key '" + keyText + "' refers to " + String.join(", ", unknown)
				+ ", which the method does not have; the variables are "
				+ String.join(", ", valid.stream().map((name) -> "#" + name).toList());
		String action = "Change the key to use the variables listed above.";
		if (parameterNames == null && parameterCount > 0) {
			message += " (the parameters' names are not known, as the class was compiled without -parameters,"
					+ " so they can be read only by index)";
			action = "Compile with -parameters (spring-boot-starter-parent and the Spring Boot Gradle plugin turn it"
					+ " on; with the Spring Boot BOM imported, set <parameters>true</parameters> in"
					+ " maven-compiler-plugin's configuration), or refer to the parameters by index (#p0, #p1, ...).";
		}
		throw new InvalidDistributedLockException.Problem(message, action);
	}

	private static void collect(SpelNode node, Set<String> read, Set<String> assigned) {
		if (node instanceof VariableReference) {
			read.add(node.toStringAST().substring(1));
		}
		else if (node instanceof Assign && node.getChildCount() > 0 && node.getChild(0) instanceof VariableReference) {
			// A variable the expression sets itself is there when it is read.
			assigned.add(node.getChild(0).toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collect(node.getChild(i), read, assigned);
		}
	}

	private static List<String> valid(int parameterCount, String[] parameterNames) {
		List<String> valid = new ArrayList<>();
		if (parameterNames != null) {
			valid.addAll(List.of(parameterNames));
		}
		for (int i = 0; i < parameterCount; i++) {
			valid.add("p" + i);
		}
		for (int i = 0; i < parameterCount; i++) {
			valid.add("a" + i);
		}
		valid.add("root");
		valid.add("this");
		return valid;
	}

}
