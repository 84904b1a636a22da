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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The lines one logger writes while a test runs, with their levels. Other test classes
 * run at the same time and may log through the same logger, so a test picks its own lines
 * by what they name (its own classes).
 *
 * @author setnx-lock authors
 */
final class CapturedLog implements AutoCloseable {

	private final Logger logger;

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {

		@Override
		protected void append(ILoggingEvent event) {
			CapturedLog.this.lines.add(event.getLevel() + " " + event.getFormattedMessage());
		}

	};

	private CapturedLog(String loggerName) {
		this.logger = loggerContext().getLogger(loggerName);
		this.appender.setName("captured-" + System.identityHashCode(this));
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	/**
	 * Start capturing what a logger and the loggers below it write at WARN and above (the
	 * level of the tests' configuration).
	 * @param loggerName the logger's name, such as a package
	 * @return the capture, to close at the end of the test
	 */
	static CapturedLog of(String loggerName) {
		return new CapturedLog(loggerName);
	}

	/**
	 * Return Logback's logger context, once SLF4J is ready: while another test class's
	 * thread initializes it, SLF4J hands out stand-ins that have no appenders.
	 */
	private static LoggerContext loggerContext() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		ILoggerFactory factory = LoggerFactory.getILoggerFactory();
		while (!(factory instanceof LoggerContext) && System.nanoTime() < deadline) {
			Thread.onSpinWait();
			factory = LoggerFactory.getILoggerFactory();
		}
		if (!(factory instanceof LoggerContext context)) {
			throw new IllegalStateException("Logback is not SLF4J's logging system here, but " + factory);
		}
		return context;
	}

	/**
	 * Return the lines captured so far that contain a text, each as its level, a space,
	 * and the message.
	 * @param text what the lines contain, such as a class name
	 * @return the lines
	 */
	List<String> linesContaining(String text) {
		return this.lines.stream().filter((line) -> line.contains(text)).toList();
	}

	/**
	 * Return all lines captured so far.
	 * @return the lines
	 */
	List<String> lines() {
		return List.copyOf(this.lines);
	}

	/**
	 * Capture DEBUG and above from this logger until closed.
	 * @return this capture
	 */
	CapturedLog atDebug() {
		this.logger.setLevel(Level.DEBUG);
		return this;
	}

	@Override
	public void close() {
		this.logger.setLevel(null);
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

}
