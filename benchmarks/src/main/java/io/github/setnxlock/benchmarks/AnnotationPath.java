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
package io.github.setnxlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Histogram;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.annotation.DistributedLockAdvisor;
import io.github.setnxlock.annotation.LockTimings;
import io.github.setnxlock.redis.SetnxLockRegistry;
import io.github.setnxlock.redis.SetnxLockSettings;

/**
 * The cost of {@code @DistributedLock} with a SpEL key over the same lock taken by hand.
 * One thread calls, in turn, an annotated method through a Spring AOP proxy (the advisor
 * the starter registers, a key of {@code #id}) and the same work written as
 * {@code registry.obtain("order:" + id)}, {@code tryLock(wait)}, work, {@code unlock()};
 * both on one registry, on the same eight keys. Rounds alternate in a shuffled order, and
 * the overhead is one minus the median of each round's ratio of annotated to direct calls
 * per second.
 *
 * @author setnx-lock authors
 */
final class AnnotationPath implements AutoCloseable {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final int KEYS = 8;

	private final LettuceConnectionFactory factory;

	private final SetnxLockRegistry registry;

	private final Orders direct;

	private final Orders annotated;

	AnnotationPath(String host, int port, String namespace) {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.registry = new SetnxLockRegistry(new StringRedisTemplate(this.factory),
				SetnxLockSettings.builder().keyPrefix("bench:annotation:" + namespace + ":").build());
		this.direct = new DirectOrders(this.registry);
		ProxyFactory proxy = new ProxyFactory(new AnnotatedOrders());
		proxy.setProxyTargetClass(true);
		proxy.addAdvisor(new DistributedLockAdvisor(this.registry, LockTimings.withDefaultWait(WAIT)));
		this.annotated = (Orders) proxy.getProxy();
	}

	/**
	 * Run both paths: a warm-up, then the rounds.
	 * @param rounds how many rounds
	 * @param perRound how long each path runs in each round
	 * @param warmUp how long each path runs before the first round
	 * @param seed the shuffle of the order within rounds
	 * @return the figures
	 */
	Result run(int rounds, Duration perRound, Duration warmUp, long seed) {
		if (!warmUp.isZero()) {
			measure(this.direct, warmUp);
			measure(this.annotated, warmUp);
		}
		Random random = new Random(seed);
		List<Run> directRuns = new ArrayList<>();
		List<Run> annotatedRuns = new ArrayList<>();
		List<Double> ratios = new ArrayList<>();
		for (int round = 0; round < rounds; round++) {
			Run directRun;
			Run annotatedRun;
			if (random.nextBoolean()) {
				directRun = measure(this.direct, perRound);
				annotatedRun = measure(this.annotated, perRound);
			}
			else {
				annotatedRun = measure(this.annotated, perRound);
				directRun = measure(this.direct, perRound);
			}
			directRuns.add(directRun);
			annotatedRuns.add(annotatedRun);
			ratios.add(annotatedRun.callsPerSecond() / directRun.callsPerSecond());
		}
		return new Result(directRuns, annotatedRuns, Median.of(ratios));
	}

	private static Run measure(Orders orders, Duration duration) {
		Histogram latency = new Histogram(3);
		AtomicInteger holding = new AtomicInteger();
		long violations = 0;
		long calls = 0;
		long start = System.nanoTime();
		long end = start + duration.toNanos();
		while (System.nanoTime() - end < 0) {
			long begin = System.nanoTime();
			if (!orders.settle("k" + (calls % KEYS), holding)) {
				violations++;
			}
			latency.recordValue(System.nanoTime() - begin);
			calls++;
		}
		return new Run(calls, System.nanoTime() - start, latency, violations);
	}

	@Override
	public void close() {
		this.registry.close();
		this.factory.destroy();
	}

	/**
	 * The work under the lock: it checks that nobody else is inside.
	 */
	public interface Orders {

		/**
		 * Settle an order under its lock.
		 * @param id the order
		 * @param holding how many callers are inside
		 * @return whether the caller was alone inside
		 */
		boolean settle(String id, AtomicInteger holding);

	}

	/**
	 * The annotated service, proxied as the starter proxies it.
	 */
	public static class AnnotatedOrders implements Orders {

		@Override
		@DistributedLock(name = "order", key = "#id")
		public boolean settle(String id, AtomicInteger holding) {
			return work(holding);
		}

	}

	/**
	 * The same work with the lock taken by hand.
	 */
	static final class DirectOrders implements Orders {

		private final SetnxLockRegistry registry;

		DirectOrders(SetnxLockRegistry registry) {
			this.registry = registry;
		}

		@Override
		public boolean settle(String id, AtomicInteger holding) {
			LeasedLock lock = this.registry.obtain("order:" + id, "order");
			try {
				if (!lock.tryLock(WAIT)) {
					throw new IllegalStateException("Lock 'order:" + id + "' was not acquired within " + WAIT);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			try {
				return work(holding);
			}
			finally {
				lock.unlock();
			}
		}

	}

	private static boolean work(AtomicInteger holding) {
		boolean alone = holding.incrementAndGet() == 1;
		holding.decrementAndGet();
		return alone;
	}

	/**
	 * One path's timed run.
	 *
	 * @param calls how many calls
	 * @param elapsedNanos how long they took
	 * @param latency each call's time, in nanoseconds
	 * @param violations calls that found another caller inside
	 */
	record Run(long calls, long elapsedNanos, Histogram latency, long violations) {

		double callsPerSecond() {
			return this.calls * 1e9 / this.elapsedNanos;
		}

	}

	/**
	 * Both paths' runs.
	 *
	 * @param direct the direct calls' runs
	 * @param annotated the annotated calls' runs
	 * @param medianRatio the median over rounds of annotated to direct calls per second
	 */
	record Result(List<Run> direct, List<Run> annotated, double medianRatio) {

		long violations() {
			return this.direct.stream().mapToLong(Run::violations).sum()
					+ this.annotated.stream().mapToLong(Run::violations).sum();
		}

		/**
		 * Return the figures as a markdown table under a heading.
		 * @return the table
		 */
		String table() {
			StringBuilder table = new StringBuilder("## Annotation path, 1 thread on 8 keys\n\n");
			table.append("| path | calls/s | × direct | p50 µs | p99 µs | violations |\n");
			table.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
			row(table, "direct `obtain(key)`, `tryLock(wait)`, `unlock()`", this.direct, 1.0);
			row(table, "`@DistributedLock(key = \"#id\")` through its proxy", this.annotated, this.medianRatio);
			table.append(String.format(Locale.ROOT, "%nThe annotation costs %.1f%% over the direct call "
					+ "(one minus the median of the rounds' ratios).%n", (1 - this.medianRatio) * 100));
			return table.toString();
		}

		private static void row(StringBuilder table, String name, List<Run> runs, double ratio) {
			table.append(String.format(Locale.ROOT, "| %s | %,.0f | %.3f | %.0f | %.0f | %d |%n", name,
					Median.of(runs.stream().mapToDouble(Run::callsPerSecond).toArray()), ratio,
					Median
						.of(runs.stream().mapToDouble((run) -> run.latency().getValueAtPercentile(50) / 1e3).toArray()),
					Median
						.of(runs.stream().mapToDouble((run) -> run.latency().getValueAtPercentile(99) / 1e3).toArray()),
					runs.stream().mapToLong(Run::violations).sum()));
		}

	}

}
