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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Locked work of one application: spans of the work that runs for {@link #WORK}, and work
 * that stays inside until the test opens its gate. Both ignore interrupts, as much
 * blocking code does. Each application of {@link CallerGivesUpTests} has one.
 *
 * @author setnx-lock authors
 */
class LockedJobs {

	/** Long enough that a second holder let in early would start within it. */
	static final Duration WORK = Duration.ofMillis(500);

	private static final ExecutorService pool = Executors.newCachedThreadPool();

	private final List<long[]> spans = new CopyOnWriteArrayList<>();

	private final AtomicInteger begun = new AtomicInteger();

	private final AtomicInteger calls = new AtomicInteger();

	private final CountDownLatch gate = new CountDownLatch(1);

	private final AtomicBoolean inside = new AtomicBoolean();

	private final AtomicBoolean interrupted = new AtomicBoolean();

	// Through methods: the test holds the bean's proxy, whose own fields are empty.
	public List<long[]> spans() {
		return this.spans;
	}

	public AtomicInteger begun() {
		return this.begun;
	}

	public AtomicInteger calls() {
		return this.calls;
	}

	public AtomicBoolean inside() {
		return this.inside;
	}

	public AtomicBoolean interrupted() {
		return this.interrupted;
	}

	public void open() {
		this.gate.countDown();
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public CompletableFuture<String> task(String id) {
		return CompletableFuture.supplyAsync(() -> work(id), pool);
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s", holdAtLeast = "1m")
	public CompletableFuture<String> keptTask(String id) {
		this.calls.incrementAndGet();
		return CompletableFuture.completedFuture(id);
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s", holdAtLeast = "1m")
	public Mono<String> keptMono(String id) {
		this.calls.incrementAndGet();
		return Mono.just(id);
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Mono<String> blocking(String id) {
		return Mono.fromCallable(() -> work(id));
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Mono<String> created(String id) {
		return Mono.create((sink) -> sink.success(work(id)));
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Flux<String> endless(String id) {
		return Flux.generate((sink) -> sink.next(work(id)));
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Mono<String> ofFuture(String id) {
		return Mono.fromFuture(CompletableFuture.supplyAsync(() -> gated(id), pool));
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Mono<String> onScheduler(String id) {
		return Mono.fromCallable(() -> gated(id)).subscribeOn(Schedulers.boundedElastic());
	}

	@DistributedLock(name = "jobs", key = "#id", waitTime = "10s")
	public Mono<String> quick(String id) {
		return Mono.just(id);
	}

	private String work(String id) {
		this.begun.incrementAndGet();
		long begin = System.nanoTime();
		BlockingWork.sleep(WORK, this.interrupted);
		this.spans.add(new long[] { begin, System.nanoTime() });
		return "done " + id;
	}

	private String gated(String id) {
		this.inside.set(true);
		BlockingWork.pass(this.gate, this.interrupted);
		this.inside.set(false);
		return id;
	}

}
