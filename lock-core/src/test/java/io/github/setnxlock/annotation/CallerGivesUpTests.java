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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A caller that stops waiting for a {@link DistributedLock} method's result (cancels,
 * times out or completes its copy, disposes its subscription) never shortens the hold of
 * work that goes on; and where the library cannot see the work go on, the hold ends as
 * documented. Two applications on one real Redis: the second one's call of the same key
 * runs after the first one's work, never beside it.
 *
 * @author setnx-lock authors
 */
class CallerGivesUpTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach((context) -> context.getBean(LockedJobs.class).open());
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
	}

	@ParameterizedTest
	@EnumSource(GiveUp.class)
	void aCallerThatGivesUpOnAFutureNeverShortensTheHoldOfTheMethodsWork(GiveUp giveUp) throws Exception {
		LockedJobs first = start(UnaryOperator.identity());
		LockedJobs second = start(UnaryOperator.identity());
		String id = "future-" + giveUp;
		CompletableFuture<String> call = first.task(id);
		await().atMost(Duration.ofSeconds(10)).until(() -> first.begun().get() == 1);
		giveUp.apply(call);
		await().atMost(Duration.ofSeconds(10)).until(call::isDone);
		assertThat(second.task(id).get(30, TimeUnit.SECONDS)).isEqualTo("done " + id);
		assertOneAfterAnother(first, second);
	}

	@Test
	void aCallerThatGaveUpBeforeItsLockArrivedRunsNothingAndKeepsNothing() throws Exception {
		HeldBackAcquisitions heldBack = new HeldBackAcquisitions();
		LockedJobs jobs = start(heldBack);
		CompletableFuture<String> call = jobs.keptTask("kept-future");
		HeldBackAcquisitions.Acquisition future = heldBack.next();
		assertThat(future.made().get(10, TimeUnit.SECONDS)).isPresent();
		call.cancel(false);
		future.deliver();
		// holdAtLeast is a minute: a key that goes was released, not kept.
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis().hasKey("lock:jobs:kept-future"));
		Disposable subscription = jobs.keptMono("kept-mono").subscribe();
		HeldBackAcquisitions.Acquisition mono = heldBack.next();
		assertThat(mono.made().get(10, TimeUnit.SECONDS)).isPresent();
		subscription.dispose();
		mono.deliver();
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis().hasKey("lock:jobs:kept-mono"));
		assertThat(jobs.calls()).hasValue(0);
	}

	@ParameterizedTest
	@EnumSource(BlockingMono.class)
	void aCancelledMonoKeepsItsLockUntilWorkOnTheSubscribingThreadReturns(BlockingMono kind) {
		LockedJobs first = start(UnaryOperator.identity());
		LockedJobs second = start(UnaryOperator.identity());
		String id = "blocking-" + kind;
		cancelOnce(kind.call(first, id), () -> first.begun().get() == 1);
		assertThat(kind.call(second, id).block(Duration.ofSeconds(30))).isEqualTo("done " + id);
		assertOneAfterAnother(first, second);
	}

	@Test
	void aCancelledEndlessFluxStopsAndKeepsItsLockUntilTheElementInProgressIsDone() {
		LockedJobs first = start(UnaryOperator.identity());
		LockedJobs second = start(UnaryOperator.identity());
		cancelOnce(first.endless("endless"), () -> first.begun().get() >= 2);
		// A Flux that went on after the cancel would keep its lock, and this call would
		// not get it.
		assertThat(second.blocking("endless").block(Duration.ofSeconds(30))).isEqualTo("done endless");
		assertOneAfterAnother(first, second);
	}

	@Test
	void aCancelledMonoOfAFutureReleasesWhileTheFuturesTaskRunsOn() {
		LockedJobs first = start(UnaryOperator.identity());
		LockedJobs second = start(UnaryOperator.identity());
		cancelOnce(first.ofFuture("of-future"), () -> first.inside().get());
		// As documented: Reactor cancels the future, not the task behind it, which the
		// library cannot see end.
		assertThat(second.quick("of-future").block(Duration.ofSeconds(30))).isEqualTo("of-future");
		assertThat(first.inside()).isTrue();
	}

	@Test
	void aCancelledMonoOnASchedulerInterruptsItsWorkerAndReleasesWithoutWaitingForIt() {
		LockedJobs first = start(UnaryOperator.identity());
		LockedJobs second = start(UnaryOperator.identity());
		cancelOnce(first.onScheduler("on-scheduler"), () -> first.inside().get());
		// As documented: the worker is interrupted, and work that does not stop for it
		// runs on after the release.
		await().atMost(Duration.ofSeconds(10)).until(() -> first.interrupted().get());
		assertThat(second.quick("on-scheduler").block(Duration.ofSeconds(30))).isEqualTo("on-scheduler");
		assertThat(first.inside()).isTrue();
	}

	/**
	 * Subscribe to a call on a thread of its own, and cancel the subscription from this
	 * one once its work has come so far. When the lock is taken before the subscription
	 * is made (a loaded machine lets the answer arrive first), the work runs on the
	 * subscribing thread, an endless Flux for ever: the thread that cancels must not be
	 * that one.
	 */
	private static void cancelOnce(Publisher<?> call, Callable<Boolean> reached) {
		BaseSubscriber<Object> subscription = new BaseSubscriber<>() {
		};
		Thread subscribing = new Thread(() -> Flux.from(call).subscribe(subscription), "subscriber");
		subscribing.setDaemon(true);
		subscribing.start();
		await().atMost(Duration.ofSeconds(10)).until(reached);
		subscription.dispose();
	}

	private static void assertOneAfterAnother(LockedJobs first, LockedJobs second) {
		List<long[]> spans = new ArrayList<>(first.spans());
		spans.addAll(second.spans());
		assertThat(spans).hasSizeGreaterThanOrEqualTo(2);
		assertThat(second.spans()).hasSize(1);
		spans.sort((a, b) -> Long.compare(a[0], b[0]));
		for (int i = 1; i < spans.size(); i++) {
			assertThat(spans.get(i)[0]).as("start of work %d after the end of the one before", i)
				.isGreaterThanOrEqualTo(spans.get(i - 1)[1]);
		}
	}

	private StringRedisTemplate redis() {
		return this.contexts.get(0).getBean(StringRedisTemplate.class);
	}

	private LockedJobs start(UnaryOperator<LockRegistry> wrapper) {
		AnnotationConfigApplicationContext context = LockedApplication.start(redisServer.server(), Map.of(), wrapper,
				LockedJobs.class);
		this.contexts.add(context);
		return context.getBean(LockedJobs.class);
	}

	/**
	 * How a caller stops waiting for a future.
	 */
	enum GiveUp {

		CANCEL((call) -> call.cancel(true)),

		TIME_OUT((call) -> call.orTimeout(100, TimeUnit.MILLISECONDS)),

		COMPLETE((call) -> call.complete("not waited for"));

		private final Consumer<CompletableFuture<String>> action;

		GiveUp(Consumer<CompletableFuture<String>> action) {
			this.action = action;
		}

		void apply(CompletableFuture<String> call) {
			this.action.accept(call);
		}

	}

	/**
	 * A {@code Mono} whose work blocks the thread that subscribes to it or asks it for
	 * its value.
	 */
	enum BlockingMono {

		/** Works when asked for its value. */
		FROM_CALLABLE {
			@Override
			Mono<String> call(LockedJobs jobs, String id) {
				return jobs.blocking(id);
			}
		},

		/** Works when subscribed, after it has handed out its subscription. */
		CREATE {
			@Override
			Mono<String> call(LockedJobs jobs, String id) {
				return jobs.created(id);
			}
		};

		abstract Mono<String> call(LockedJobs jobs, String id);

	}

}
