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
package io.github.setnxlock;

import java.util.Comparator;

import io.github.setnxlock.test.SharedResources;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedClass;

/**
 * Hands the test classes that need the machine's cores to themselves
 * ({@link SharedResources#CORES}) to the workers first, so that their chain, one class
 * after another, starts with the run and the other classes fill the other workers beside
 * it; handed out last, the chain ran alone at the end of the run. The parameterized
 * classes come next: their variants run one after another, so they are the longest of the
 * others (the Redis contract, about 90 s). Then the classes marked {@link Order} with a
 * low value, the longest of the rest (40 s and more), so that none of them starts last
 * and ends the run alone. Set in {@code junit-platform.properties}.
 *
 * @author setnx-lock authors
 */
public class CoresFirst implements ClassOrderer {

	@Override
	public void orderClasses(ClassOrdererContext context) {
		context.getClassDescriptors()
			.sort(Comparator.comparing((ClassDescriptor descriptor) -> !needsTheCores(descriptor))
				.thenComparing((descriptor) -> !descriptor.isAnnotated(ParameterizedClass.class))
				.thenComparingInt((
						descriptor) -> descriptor.findAnnotation(Order.class).map(Order::value).orElse(Order.DEFAULT)));
	}

	private static boolean needsTheCores(ClassDescriptor descriptor) {
		return descriptor.findRepeatableAnnotations(ResourceLock.class)
			.stream()
			.anyMatch((lock) -> SharedResources.CORES.equals(lock.value()));
	}

}
