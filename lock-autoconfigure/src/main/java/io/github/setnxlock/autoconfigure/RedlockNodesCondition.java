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

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether {@code setnx.lock.redlock.nodes} names any node, in any of the forms Spring
 * Boot binds a list from (a comma-separated value, indexed entries, a YAML list), which a
 * {@code @ConditionalOnProperty} on the one name would not all see.
 *
 * @author setnx-lock authors
 */
abstract class RedlockNodesCondition extends SpringBootCondition {

	private final boolean whenSet;

	private RedlockNodesCondition(boolean whenSet) {
		this.whenSet = whenSet;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		List<String> nodes;
		try {
			nodes = Binder.get(context.getEnvironment())
				.bind(RedlockConnections.NODES, Bindable.listOf(String.class))
				.orElse(List.of());
		}
		catch (BindException ex) {
			// Written but not bindable (a list split across property sources): set, so
			// that binding the properties reports what is wrong with it.
			nodes = List.of("?");
		}
		boolean set = !nodes.isEmpty();
		String message = RedlockConnections.NODES + (set ? " names " + nodes.size() + " nodes" : " is not set");
		return (set == this.whenSet) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

	/**
	 * Matches when Redlock nodes are set.
	 */
	static final class Set extends RedlockNodesCondition {

		Set() {
			super(true);
		}

	}

	/**
	 * Matches when no Redlock node is set: locks live on the single Redis connection.
	 */
	static final class NotSet extends RedlockNodesCondition {

		NotSet() {
			super(false);
		}

	}

}
