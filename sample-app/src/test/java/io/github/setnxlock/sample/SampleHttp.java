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

package io.github.setnxlock.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import com.jayway.jsonpath.JsonPath;

/**
 * Calls the running sample over real HTTP, the way a user's client would, one call at a
 * time or from many threads at once.
 *
 * @author setnx-lock authors
 */
final class SampleHttp {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	SampleHttp(int port) {
		this.base = "http://localhost:" + port;
	}

	Reply get(String path) {
		return send("GET", path);
	}

	Reply post(String path) {
		return send("POST", path);
	}

	Reply put(String path) {
		return send("PUT", path);
	}

	Reply delete(String path) {
		return send("DELETE", path);
	}

	CompletableFuture<Reply> postAsync(String path) {
		return this.client.sendAsync(request("POST", path), HttpResponse.BodyHandlers.ofString())
			.thenApply((response) -> new Reply(response.statusCode(), response.body()));
	}

	/**
	 * Make {@code calls} POST calls from each of {@code threads} threads, all threads
	 * starting together so that their calls overlap.
	 * @param threads how many threads
	 * @param calls how many calls each thread makes, one after the other
	 * @param pathOfThread the path a thread calls, by the thread's index
	 * @return every reply
	 */
	List<Reply> postConcurrently(int threads, int calls, IntFunction<String> pathOfThread) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Reply>>> results = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				String path = pathOfThread.apply(thread);
				results.add(pool.submit(() -> {
					start.await();
					List<Reply> replies = new ArrayList<>();
					for (int call = 0; call < calls; call++) {
						replies.add(post(path));
					}
					return replies;
				}));
			}
			start.countDown();
			List<Reply> all = new ArrayList<>();
			for (Future<List<Reply>> result : results) {
				all.addAll(result.get(60, TimeUnit.SECONDS));
			}
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private Reply send(String method, String path) {
		try {
			HttpResponse<String> response = this.client.send(request(method, path),
					HttpResponse.BodyHandlers.ofString());
			return new Reply(response.statusCode(), response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(method + " " + path + " interrupted", ex);
		}
		catch (IOException ex) {
			throw new IllegalStateException(method + " " + path + " failed", ex);
		}
	}

	private HttpRequest request(String method, String path) {
		return HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(TIMEOUT)
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
	}

	/**
	 * One HTTP answer.
	 *
	 * @param status the status code
	 * @param body the body, JSON
	 */
	record Reply(int status, String body) {

		<T> T json(String path) {
			return JsonPath.read(this.body, path);
		}

		long number(String path) {
			return ((Number) json(path)).longValue();
		}

	}

}
