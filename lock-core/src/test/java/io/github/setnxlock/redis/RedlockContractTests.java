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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.LockRegistryContractTests;
import io.github.setnxlock.test.RedisNodes;

/**
 * The registry contract on Redlock over three independent Redis masters, and over five: a
 * lock counts as stored when a majority of the nodes holds its key.
 *
 * @author setnx-lock authors
 */
@ParameterizedClass(name = "{0} nodes")
@ValueSource(ints = { 3, 5 })
class RedlockContractTests extends LockRegistryContractTests {

	private static final Map<Integer, RedisNodes> started = new ConcurrentHashMap<>();

	@Parameter
	int nodeCount;

	private RedisNodes nodes;

	private RedlockClient first;

	private RedlockClient second;

	@BeforeParameterizedClassInvocation
	static void startNodes(int nodeCount) {
		started.put(nodeCount, RedisNodes.start(nodeCount));
	}

	@AfterParameterizedClassInvocation
	static void stopNodes(int nodeCount) {
		RedisNodes nodes = started.remove(nodeCount);
		if (nodes != null) {
			nodes.close();
		}
	}

	private RedisNodes nodes() {
		return this.nodes;
	}

	/**
	 * Return the settings under test: a node timeout that a loaded machine does not
	 * outlast, so that only a frozen node counts as failed.
	 * @return the settings
	 */
	static SetnxLockSettings settings() {
		// Nodes started for the class would sit out the first lease: restarts are the
		// subject of RedlockRestartTests.
		return SetnxLockSettings.builder().nodeTimeout(Duration.ofSeconds(1)).restartDelay(Duration.ZERO).build();
	}

	@BeforeEach
	void connect() {
		this.nodes = started.get(this.nodeCount);
		nodes().flushAll();
		this.first = new RedlockClient(nodes(), settings());
		this.second = new RedlockClient(nodes(), settings());
	}

	@AfterEach
	void disconnect() throws InterruptedException {
		stopThreads();
		this.first.close();
		this.second.close();
	}

	@Override
	protected LockRegistry first() {
		return this.first.registry;
	}

	@Override
	protected LockRegistry second() {
		return this.second.registry;
	}

	@Override
	protected boolean isStored(String key) {
		int holders = nodes().holdersOf(SetnxLockSettings.defaults().keyPrefix() + key);
		return holders >= nodes().size() / 2 + 1;
	}

	@Override
	protected int localKeyCount(LockRegistry registry) {
		return ((SetnxLockRegistry) registry).localKeyCount();
	}

	/**
	 * A shortened lease is a renewal on every node, which tells nobody: waiters wait for
	 * the end of the lease they saw.
	 */
	@Override
	protected boolean waitersHearOfAShortenedLease() {
		return false;
	}

	@Override
	protected void awaitWaiter(LockRegistry registry, String key) {
		Handshakes.awaitWaiterOnRedis((SetnxLockRegistry) registry, SetnxLockSettings.defaults().keyPrefix() + key);
	}

}
