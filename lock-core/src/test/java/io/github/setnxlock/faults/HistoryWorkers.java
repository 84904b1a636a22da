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

package io.github.setnxlock.faults;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@link HistoryWorker} processes of this JVM's runs, kept from one run to the next:
 * a worker that ended its run cleanly waits, warm, for the next one, instead of a new JVM
 * starting, loading its classes and compiling its code again before every run (four
 * seconds or so on a 2-core machine, in a run of five to eight). Every run still connects
 * anew to its own servers, with a registry of its own, and warms up on them. A worker
 * whose run failed, or that a test left in a state nobody knows (paused, say, when the
 * test failed), is destroyed rather than kept. Idle workers end with this JVM: they stop
 * when their standard input closes.
 *
 * @author setnx-lock authors
 */
final class HistoryWorkers {

	/** What a worker prints on its standard output when its run ended cleanly. */
	static final String DONE = "DONE";

	/** What it prints, with the failure, when its run failed; it ends then. */
	static final String FAILED = "FAILED";

	private static final Deque<Worker> idle = new ArrayDeque<>();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(HistoryWorkers::destroyIdle, "history-workers"));
	}

	private HistoryWorkers() {
	}

	/**
	 * Return an idle worker, or start one.
	 * @return a worker that waits for a run
	 */
	static Worker take() {
		synchronized (idle) {
			while (!idle.isEmpty()) {
				Worker worker = idle.pop();
				if (worker.process.isAlive()) {
					worker.other.setLength(0);
					return worker;
				}
			}
		}
		return Worker.start();
	}

	private static void destroyIdle() {
		synchronized (idle) {
			idle.forEach((worker) -> worker.process.destroyForcibly());
			idle.clear();
		}
	}

	/**
	 * One worker process, and what it said on its standard output.
	 */
	static final class Worker {

		final Process process;

		private final BufferedWriter runs;

		private final BlockingQueue<String> ends = new LinkedBlockingQueue<>();

		/** What else the JVM printed: a crash, say, before a run could redirect it. */
		private final StringBuffer other = new StringBuffer();

		private Worker(Process process) {
			this.process = process;
			this.runs = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
			Thread reader = new Thread(this::readAnswers, "history-worker-" + process.pid());
			reader.setDaemon(true);
			reader.start();
		}

		private static Worker start() {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			try {
				return new Worker(new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
						"-cp", System.getProperty("java.class.path"), HistoryWorker.class.getName())
					.redirectErrorStream(true)
					.start());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		private void readAnswers() {
			try (BufferedReader answers = new BufferedReader(
					new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = answers.readLine(); line != null; line = answers.readLine()) {
					if (line.equals(DONE) || line.startsWith(FAILED)) {
						this.ends.add(line);
					}
					else {
						this.other.append(line).append('\n');
					}
				}
			}
			catch (IOException ex) {
				// The process is gone: said below.
			}
			this.ends.add("ended (exit " + exitValue() + ")" + (this.other.isEmpty() ? "" : ":\n" + this.other));
		}

		private String exitValue() {
			try {
				return String.valueOf(this.process.waitFor());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "unknown";
			}
		}

		/**
		 * Start a run: the arguments {@link HistoryWorker} documents, one line of them.
		 * @param arguments the run's arguments, as {@code name=value}
		 */
		void run(List<String> arguments) {
			try {
				this.runs.write(String.join("\t", arguments));
				this.runs.newLine();
				this.runs.flush();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("The worker is gone: " + this.other, ex);
			}
		}

		/**
		 * Wait for the run to end, and return how: {@link HistoryWorkers#DONE} when it
		 * ended cleanly, else what went wrong.
		 * @param timeout how long to wait
		 * @return how the run ended, or {@code null} if it has not ended in time
		 * @throws InterruptedException if interrupted while waiting
		 */
		String awaitEnd(Duration timeout) throws InterruptedException {
			return this.ends.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}

		/**
		 * Keep the worker for the next run, once its run ended cleanly.
		 */
		void giveBack() {
			synchronized (idle) {
				idle.push(this);
			}
		}

		/**
		 * Destroy the worker.
		 */
		void destroy() {
			this.process.destroyForcibly();
		}

	}

}
