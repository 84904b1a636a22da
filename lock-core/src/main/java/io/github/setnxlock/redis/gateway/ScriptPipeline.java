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

package io.github.setnxlock.redis.gateway;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs one script many times in a single round trip (a pipeline of {@code EVALSHA}), so
 * that renewing many held locks costs one round trip per tick, not one per lock. A Redis
 * that has forgotten the script ({@code NOSCRIPT}, after a restart) gets it loaded and
 * the batch sent once more. A batch of one is not pipelined: it runs on the template's
 * shared connection like any other script. A connection that cannot pipeline (Jedis on a
 * cluster) runs the calls one at a time, each sent as {@code EVAL} where its node has not
 * seen the script yet.
 *
 * @author setnx-lock authors
 */
final class ScriptPipeline {

	private ScriptPipeline() {
	}

	/**
	 * Run the script once per call.
	 * @param redis the template
	 * @param script the script
	 * @param returnType how Redis answers it
	 * @param keyCount how many of each call's strings are keys
	 * @param calls per call, its keys followed by its arguments
	 * @return per call, its answer: a {@link Long}, a {@link String} or a {@link List} of
	 * them
	 * @throws RuntimeException when the batch could not be sent or a command failed
	 */
	static List<Object> run(StringRedisTemplate redis, RedisScript<?> script, ReturnType returnType, int keyCount,
			List<List<String>> calls) {
		if (calls.size() == 1) {
			// One call needs no pipeline, which would cost a connection of its own: the
			// template runs it on the shared connection and reloads a forgotten script.
			List<String> call = calls.get(0);
			Object answer = redis.execute(script, call.subList(0, keyCount),
					call.subList(keyCount, call.size()).toArray());
			return Collections.singletonList(decode(answer));
		}
		try {
			return send(redis, script, returnType, keyCount, calls);
		}
		catch (RedisPipelineException ex) {
			// The client does not say which command failed. The scripts handle every key
			// state themselves, so what fails a command is a Redis that has forgotten
			// them, or one that refuses the user a right, and then the batch fails again.
			redis.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands()
				.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8)));
			return send(redis, script, returnType, keyCount, calls);
		}
	}

	private static List<Object> send(StringRedisTemplate redis, RedisScript<?> script, ReturnType returnType,
			int keyCount, List<List<String>> calls) {
		// The connection itself, not the template's string wrapper, which drops the
		// answers of commands it did not send itself.
		List<Object> answers;
		try (RedisConnection connection = redis.getRequiredConnectionFactory().getConnection()) {
			try {
				connection.openPipeline();
			}
			catch (UnsupportedOperationException | InvalidDataAccessApiUsageException ex) {
				// Some connections (Jedis on a cluster) cannot pipeline: one call at a
				// time.
				return sendOneByOne(connection, script, returnType, keyCount, calls);
			}
			boolean closed = false;
			try {
				for (List<String> call : calls) {
					connection.scriptingCommands().evalSha(script.getSha1(), returnType, keyCount, bytes(call));
				}
				closed = true;
				answers = connection.closePipeline();
			}
			finally {
				if (!closed) {
					connection.closePipeline();
				}
			}
		}
		List<Object> decoded = new ArrayList<>(answers.size());
		answers.forEach((answer) -> decoded.add(decode(answer)));
		return decoded;
	}

	private static List<Object> sendOneByOne(RedisConnection connection, RedisScript<?> script, ReturnType returnType,
			int keyCount, List<List<String>> calls) {
		List<Object> answers = new ArrayList<>(calls.size());
		for (List<String> call : calls) {
			byte[][] keysAndArgs = bytes(call);
			Object answer;
			try {
				answer = connection.scriptingCommands().evalSha(script.getSha1(), returnType, keyCount, keysAndArgs);
			}
			catch (RuntimeException ex) {
				if (!isNoScript(ex)) {
					throw ex;
				}
				// A node that has not seen the script yet (each node of a cluster has
				// a script cache of its own, and a restarted one has none): EVAL runs
				// it and leaves it in that node's cache.
				answer = connection.scriptingCommands()
					.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), returnType, keyCount,
							keysAndArgs);
			}
			answers.add(decode(answer));
		}
		return answers;
	}

	private static boolean isNoScript(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

	static byte[][] bytes(List<String> call) {
		byte[][] keysAndArgs = new byte[call.size()][];
		for (int i = 0; i < keysAndArgs.length; i++) {
			keysAndArgs[i] = call.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return keysAndArgs;
	}

	/**
	 * Turn the bulk strings of an answer into strings, as the template's serializer does.
	 */
	static Object decode(Object answer) {
		if (answer instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (answer instanceof List<?> list) {
			List<Object> decoded = new ArrayList<>(list.size());
			list.forEach((element) -> decoded.add(decode(element)));
			return decoded;
		}
		return answer;
	}

}
