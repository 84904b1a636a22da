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

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.core.ResolvableType;

/**
 * The names of the {@code setnx.lock} properties, read from {@link SetnxLockProperties}
 * by reflection so that a new property needs no list kept by hand. A per-lock entry is
 * named with {@code [*]} for the lock's name, as in
 * {@code setnx.lock.locks[*].wait-time}.
 *
 * @author setnx-lock authors
 */
final class SetnxLockPropertyNames {

	static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("setnx.lock");

	static final ConfigurationPropertyName LOCKS = PREFIX.append("locks");

	static final String ANY_LOCK = "[*]";

	private static final Map<String, Class<?>> TYPES = Collections.unmodifiableMap(collect());

	/**
	 * The properties by their names in uniform form, what relaxed names are compared in.
	 */
	private static final Map<String, String> BY_UNIFORM_NAME = byUniformName();

	private SetnxLockPropertyNames() {
	}

	/**
	 * Return every property, by its name in dashed form, with its type.
	 * @return the types by name, in declaration order of the getters
	 */
	static Map<String, Class<?>> types() {
		return TYPES;
	}

	/**
	 * Return the property that a name of the Environment binds to, as {@link #types()}
	 * names it: the lock's name of a per-lock entry becomes {@code [*]}. Relaxed forms
	 * (such as {@code leaseTime} or {@code LEASE_TIME}) match as Spring Boot binds them.
	 * @param name a name under {@code setnx.lock}
	 * @return the property's name, or {@code null} if the name binds to none
	 */
	static String propertyOf(ConfigurationPropertyName name) {
		String property = BY_UNIFORM_NAME.get(uniform(name));
		ConfigurationPropertyName list = listOf(name);
		return (property != null || list == null) ? property : listProperty(BY_UNIFORM_NAME.get(uniform(list)));
	}

	/**
	 * Return the list an element's name belongs to, such as
	 * {@code setnx.lock.redlock.nodes} of {@code setnx.lock.redlock.nodes[0]} (or of
	 * {@code ...nodes.0}, as an environment variable gives it), or {@code null} when the
	 * name ends in no index.
	 */
	private static ConfigurationPropertyName listOf(ConfigurationPropertyName name) {
		int elements = name.getNumberOfElements();
		int kept = elements;
		while (kept > PREFIX.getNumberOfElements() && (name.isNumericIndex(kept - 1)
				|| name.getElement(kept - 1, Form.UNIFORM).chars().allMatch(Character::isDigit))) {
			kept--;
		}
		return (kept < elements) ? name.chop(kept) : null;
	}

	private static String listProperty(String property) {
		return (property != null && Collection.class.isAssignableFrom(TYPES.get(property))) ? property : null;
	}

	/**
	 * Return the property that an environment variable's name binds to. Spring Boot reads
	 * {@code SETNX_LOCK_LEASE_TIME} as {@code setnx.lock.lease.time}, yet binds it to
	 * {@code setnx.lock.lease-time} by an older mapping of its own, and not every such
	 * name binds; so a property whose name differs only in dots and dashes is asked of
	 * the source itself. For a per-lock entry, some elements after {@code locks} name the
	 * lock and the rest its setting.
	 * @param name a name under {@code setnx.lock}, from environment variables
	 * @param source the environment variables
	 * @return the property's name, or {@code null} if the name binds to none
	 */
	static String propertyOfEnvironmentVariable(ConfigurationPropertyName name, ConfigurationPropertySource source) {
		int elements = name.getNumberOfElements();
		int lockName = LOCKS.getNumberOfElements();
		for (String property : TYPES.keySet()) {
			int perLock = property.indexOf(ANY_LOCK);
			if (perLock < 0) {
				if (flat(property).equals(flat(name, 0, elements)) && binds(source, property)) {
					return property;
				}
				continue;
			}
			String setting = property.substring(perLock + ANY_LOCK.length());
			for (int end = lockName + 1; end < elements && LOCKS.isAncestorOf(name); end++) {
				String lock = flat(name, lockName, end);
				if (flat(setting).equals(flat(name, end, elements)) && binds(source, LOCKS + "." + lock + setting)) {
					return property;
				}
			}
		}
		return null;
	}

	private static boolean binds(ConfigurationPropertySource source, String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
		return source.getConfigurationProperty(name) != null;
	}

	private static String flat(String property) {
		return property.replace(".", "").replace("-", "");
	}

	private static String flat(ConfigurationPropertyName name, int from, int to) {
		StringBuilder flat = new StringBuilder();
		for (int i = from; i < to; i++) {
			flat.append(name.getElement(i, Form.UNIFORM));
		}
		return flat.toString();
	}

	/**
	 * Whether a name is a group of properties rather than one, such as
	 * {@code setnx.lock.renewal}.
	 * @param name a name under {@code setnx.lock}
	 * @return whether some property is under it
	 */
	static boolean isGroup(ConfigurationPropertyName name) {
		String group = uniform(name) + ".";
		return BY_UNIFORM_NAME.keySet().stream().anyMatch((property) -> property.startsWith(group));
	}

	/**
	 * Return a name in Spring Boot's uniform form (lower case, no dashes), with the
	 * lock's name of a per-lock entry written {@code [*]}.
	 */
	private static String uniform(ConfigurationPropertyName name) {
		StringJoiner joined = new StringJoiner(".");
		int lockName = LOCKS.getNumberOfElements();
		boolean perLock = LOCKS.isAncestorOf(name);
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			joined.add((perLock && i == lockName) ? ANY_LOCK : name.getElement(i, Form.UNIFORM));
		}
		return joined.toString();
	}

	private static Map<String, String> byUniformName() {
		Map<String, String> byUniformName = new LinkedHashMap<>();
		TYPES.keySet()
			.forEach((property) -> byUniformName.put(uniform(ConfigurationPropertyName.of(property)), property));
		return Collections.unmodifiableMap(byUniformName);
	}

	private static Map<String, Class<?>> collect() {
		Map<String, Class<?>> types = new LinkedHashMap<>();
		collect(PREFIX.toString(), SetnxLockProperties.class, types);
		return types;
	}

	private static void collect(String prefix, Class<?> type, Map<String, Class<?>> types) {
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = property.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			String name = prefix + "." + DataObjectPropertyName.toDashedForm(property.getName());
			Class<?> propertyType = property.getPropertyType();
			if (Map.class.isAssignableFrom(propertyType)) {
				Class<?> entryType = ResolvableType.forMethodReturnType(getter).asMap().resolveGeneric(1);
				if (isGroup(entryType)) {
					collect(name + ANY_LOCK, entryType, types);
					continue;
				}
			}
			if (isGroup(propertyType) && property.getWriteMethod() == null) {
				collect(name, propertyType, types);
			}
			else if (property.getWriteMethod() != null) {
				types.put(name, propertyType);
			}
		}
	}

	private static boolean isGroup(Class<?> type) {
		// The groups are this package's *Properties classes, each a nested property.
		return type != null && type != SetnxLockProperties.class
				&& type.getPackage() == SetnxLockProperties.class.getPackage()
				&& type.getSimpleName().endsWith("Properties");
	}

}
