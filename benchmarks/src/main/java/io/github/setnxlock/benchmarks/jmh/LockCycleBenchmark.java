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
package io.github.setnxlock.benchmarks.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.setnxlock.benchmarks.Contender;
import io.github.setnxlock.benchmarks.Contenders;
import io.github.setnxlock.test.RedisServer;

/**
 * One uncontended acquire+release per operation, for JMH's GC profiler: run with
 * {@code -prof gc}, its {@code gc.alloc.rate.norm} is the bytes every thread of the JVM
 * allocated per cycle (the client's event loop included), which the timed harness does
 * not see. Each fork starts its own {@code redis-server}. Times here are one thread's and
 * say less than the harness's interleaved rounds; the allocation is what this is for.
 *
 * @author setnx-lock authors
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class LockCycleBenchmark {

	/**
	 * Part of the name of the contender, as {@code --only} takes it.
	 */
	@Param({ "setnx-lock token", "setnx-lock timestamp", "raw SET NX PX", "Spring Integration pub/sub",
			"Redisson lease", "ShedLock safeUpdate" })
	public String contender;

	private RedisServer redis;

	private Contender connected;

	private Contender.KeyLock lock;

	/**
	 * Start a server and connect the contender.
	 */
	@Setup(Level.Trial)
	public void connect() {
		this.redis = RedisServer.start();
		List<Contender> contenders = new ArrayList<>(
				Contenders.connect(this.redis.host(), this.redis.port(), List.of(this.contender)));
		// "setnx-lock token" is also part of "setnx-lock token (script release)".
		List<Contender> others = contenders.stream().filter((each) -> !each.name().equals(this.contender)).toList();
		if (others.size() < contenders.size()) {
			others.forEach(Contender::close);
			contenders.removeAll(others);
		}
		if (contenders.size() != 1) {
			contenders.forEach(Contender::close);
			throw new IllegalArgumentException(
					"'" + this.contender + "' names " + contenders.size() + " contenders, not one");
		}
		this.connected = contenders.get(0);
		this.lock = this.connected.lockFor("jmh");
	}

	/**
	 * Close the contender and stop the server.
	 */
	@TearDown(Level.Trial)
	public void close() {
		this.connected.close();
		this.redis.close();
	}

	/**
	 * One acquire and release.
	 */
	@Benchmark
	public void cycle() {
		this.lock.lock();
		this.lock.unlock();
	}

}
