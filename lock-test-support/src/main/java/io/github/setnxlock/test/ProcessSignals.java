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

package io.github.setnxlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Sends POSIX signals to processes the tests started, with the {@code kill} command (Java
 * has no API for {@code SIGSTOP} and {@code SIGCONT}): pausing a process freezes every
 * thread of it at once, as a long garbage collection or a suspended virtual machine
 * would.
 *
 * @author setnx-lock authors
 */
public final class ProcessSignals {

	private ProcessSignals() {
	}

	/**
	 * Pause a process (SIGSTOP).
	 * @param process the process
	 */
	public static void pause(Process process) {
		send(process, "STOP");
	}

	/**
	 * Let a paused process go on (SIGCONT).
	 * @param process the process
	 */
	public static void resume(Process process) {
		send(process, "CONT");
	}

	static void send(Process process, String signal) {
		if (!process.isAlive()) {
			throw new IllegalStateException("Process " + process.pid() + " is not running");
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run kill -" + signal, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal, ex);
		}
	}

}
