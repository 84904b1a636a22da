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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.setnxlock.LockNotAcquiredException;

/**
 * Runs a Spring bean method under a distributed lock of the application's
 * {@link io.github.setnxlock.LockRegistry}: the lock is taken before the method runs and
 * released when its work ends: when it returns or throws, or, for a method whose work
 * ends after it returns, when that work ends (see <b>Futures and publishers</b>).
 * <p>
 * <b>Which lock.</b> The lock key is the {@link #name()} (by default
 * {@code SimpleClassName.methodName}), followed by {@code ':'} and the value of the
 * {@link #key()} expression when there is one:
 * {@code @DistributedLock(key = "#order.id")} on {@code OrderService.place(Order order)}
 * locks {@code OrderService.place:42}, so calls for different orders do not contend. The
 * registry puts its key prefix before it.
 * <p>
 * <b>How long.</b> The call waits up to {@link #waitTime()} for the lock, and holds it
 * for {@link #leaseTime()} if it names one; otherwise the registry's watchdog renews the
 * lease for as long as the method runs. Settings keyed by the lock's {@link #name()}
 * ({@code setnx.lock.locks[<name>].wait-time} and {@code .lease-time} with the Spring
 * Boot starter; the brackets keep the dots of the name) take precedence over the
 * attributes, so operators can tune a lock without a new build; the attributes take
 * precedence over the global defaults.
 * <p>
 * <b>When the lock cannot be had</b> within the wait, {@link #onFailure()} decides: throw
 * a {@link LockNotAcquiredException} (the default), skip the call, or call a
 * {@link #fallback() fallback method}. An interrupt while waiting always throws a
 * {@link LockNotAcquiredException} and keeps the thread's interrupt status; a Redis
 * failure always throws the registry's {@link io.github.setnxlock.LockAccessException}.
 * <p>
 * <b>When the lock is lost</b> before the method returns (its lease ended), the
 * {@link io.github.setnxlock.LockLostException} of the release reaches the caller: the
 * work may not have been exclusive. If the method threw, its exception is rethrown with
 * the release failure attached as suppressed.
 * <p>
 * <b>Order with other advice.</b> The lock is taken outside {@code @Transactional}:
 * before the transaction begins, and released after it commits or rolls back, so the next
 * holder sees the committed data. With {@code @Async} the lock covers the asynchronous
 * execution.
 * <p>
 * <b>Futures and publishers.</b> A method that returns a {@code CompletionStage} or
 * {@code CompletableFuture} holds the lock from the call until the stage it returned
 * completes; one that returns a Reactor {@code Mono} or {@code Flux}, or a Kotlin
 * {@code suspend} function, from subscription until the publisher completes or fails. No
 * thread waits for the lock, and the method runs once it is held. A caller that gives up
 * while the call waits for the lock (cancels or times out its future, disposes its
 * subscription) ends the wait: the method never runs, and nothing is kept, not even for
 * {@link #holdAtLeast()}. Once the method has run, the lock follows the method's own
 * work, not the caller: a caller's cancel is not passed on to the stage the method
 * returned (cancelling a {@code CompletableFuture} stops nothing of its task), which
 * keeps the lock until it completes. A cancelled publisher is cancelled in turn, and
 * keeps the lock until the calls made into it (the subscription, the requests, the
 * cancel) have returned; work that goes on beyond them on a thread of its own (the task
 * behind {@code Mono.fromFuture}, code on a {@code subscribeOn} scheduler that ignores
 * the interrupt, a suspend function's cancellation) cannot be seen, and the lock is
 * released while it may still run. The project's {@code docs/async.md} lists the cases.
 * <p>
 * <b>Scheduled jobs.</b> On a {@code @Scheduled} method with {@code waitTime = "0s"} and
 * {@code onFailure = SKIP}, one instance of the application runs each execution and the
 * others skip it; {@link #holdAtLeast()} keeps a fast job from running again on another
 * instance within the same period.
 * <p>
 * <b>Checked at start-up.</b> The expression's syntax and the variables it reads (a
 * {@code #orderId} where the parameter is {@code id} is refused, with the valid names),
 * the durations, the fallback method, the return type (a primitive cannot be skipped) and
 * the method's modifiers (a {@code private}, {@code static} or {@code final} method
 * cannot be intercepted) are checked when the bean is created, so a mistake stops the
 * application from starting with a message naming the method. A duration written as a
 * bare number other than zero (milliseconds: {@code leaseTime = "5"} is 5 ms) and a
 * {@code leaseTime} under one second are logged as warnings then, one line per method.
 * Only calls through the Spring proxy are locked: a call from another method of the same
 * object is not.
 * <p>
 * <b>Composed annotations.</b> {@code @DistributedLock} may annotate an annotation of the
 * application's own, which then stands for it on methods; that annotation may expose
 * attributes with {@link org.springframework.core.annotation.AliasFor @AliasFor}:
 * <pre class="code">
 * &#64;Retention(RetentionPolicy.RUNTIME)
 * &#64;Target(ElementType.METHOD)
 * &#64;DistributedLock(name = "order", waitTime = "0s")
 * public &#64;interface OrderLock {
 *
 *     &#64;AliasFor(annotation = DistributedLock.class, attribute = "key")
 *     String key() default "#id";
 *
 * }
 * </pre>
 * <p>
 * <b>Arguments stay out of messages.</b> The key is made of the call's arguments, which
 * may be personal data, so the exceptions and log lines of the annotation's advice name
 * the lock's {@link #name()} and the method, never the key or an argument's value; the
 * key remains available as {@link LockNotAcquiredException#getKey()}. Exceptions of the
 * registry that reach the caller (such as a
 * {@link io.github.setnxlock.LockLostException}) are passed on as they are.
 *
 * @author setnx-lock authors
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * The lock's logical name: the start of its key, and the name its settings, metrics
	 * and log lines use. Empty means {@code SimpleClassName.methodName}, with the class
	 * of the bean (a subclass that inherits the method gets a name of its own; overloads
	 * share one).
	 * @return the name
	 */
	String name() default "";

	/**
	 * A SpEL expression over the method's arguments whose value is appended to the name,
	 * after a {@code ':'}. Arguments are {@code #p0}, {@code #a0}, ... always, and
	 * {@code #name} when the code is compiled with {@code -parameters};
	 * {@code #root.method} and {@code #root.target} are there too, and {@code @bean}
	 * names a bean. The value must not be {@code null}; arrays are rendered by content,
	 * and an object without a {@code toString()} of its own is rejected. A variable the
	 * method does not offer fails start-up. Empty means the name alone is the key.
	 * @return the expression
	 */
	String key() default "";

	/**
	 * How long to wait for the lock, such as {@code "500ms"}, {@code "5s"} or
	 * {@code "PT5S"}; {@code "0s"} makes a single attempt. Placeholders
	 * ({@code "${jobs.wait}"}) are resolved. Empty means the registry's default wait
	 * ({@code setnx.lock.wait-time}).
	 * @return the wait
	 */
	String waitTime() default "";

	/**
	 * How long the lock is held before it ends by itself, in the format of
	 * {@link #waitTime()}; it is never renewed, so choose it longer than the method can
	 * take. Empty means the registry's lease ({@code setnx.lock.lease-time}), renewed by
	 * the watchdog while the method runs.
	 * @return the lease
	 */
	String leaseTime() default "";

	/**
	 * The shortest time the lock stays taken, counted from its acquisition, in the format
	 * of {@link #waitTime()}: when the method returns sooner, the lock stays in Redis
	 * until then (the calling thread goes on). A call whose method never ran (its caller
	 * gave up while the lock was on its way) keeps nothing. Empty means the lock is
	 * released as soon as the method returns.
	 * @return the minimum hold
	 */
	String holdAtLeast() default "";

	/**
	 * What to do when the lock is not acquired within the wait.
	 * @return the action
	 */
	OnLockFailure onFailure() default OnLockFailure.THROW;

	/**
	 * Whether to interrupt the method's thread as soon as its lock is found lost (a
	 * renewal found the key taken, renewals could not reach Redis in time, or an explicit
	 * lease ended), so that blocking work stops with an {@link InterruptedException}
	 * instead of going on unprotected. Off by default: not every method reacts well to
	 * interrupts.
	 * @return whether to interrupt on loss
	 */
	boolean interruptOnLoss() default false;

	/**
	 * The name of the method to call instead, with {@link OnLockFailure#FALLBACK}: a
	 * method of the same class that takes the same parameters, optionally followed by a
	 * {@link LockNotAcquiredException}, and returns a type the locked method may return.
	 * @return the fallback method's name
	 */
	String fallback() default "";

}
