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

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Ties the embedded Redis server to the application context that uses it: the server is a
 * bean named {@value #BEAN_NAME} (so tests can look inside it), it is stopped when the
 * context closes, after every bean that talks to it has been destroyed, and it is stopped
 * when the application fails to start (at once when the context never started, else by
 * the close that follows, after the beans).
 * <p>
 * Stopping the server on {@code ContextClosedEvent} would be too early: the event comes
 * before the beans are destroyed, and the connection factory, the scheduler and locks
 * still held would meet a dead server on the way out.
 *
 * @author setnx-lock authors
 */
final class EmbeddedRedisLifecycle implements SmartApplicationListener {

	/**
	 * The name of the {@link EmbeddedRedis} bean.
	 */
	static final String BEAN_NAME = "embeddedRedisServer";

	private static final Log logger = LogFactory.getLog(EmbeddedRedisLifecycle.class);

	private final EmbeddedRedis server;

	private final AtomicBoolean closed = new AtomicBoolean();

	/** Whether the context will stop the server when it destroys its beans. */
	private final AtomicBoolean registered = new AtomicBoolean();

	EmbeddedRedisLifecycle(EmbeddedRedis server) {
		this.server = server;
	}

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ApplicationPreparedEvent.class.isAssignableFrom(eventType)
				|| ApplicationFailedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationPreparedEvent prepared && !this.closed.get()) {
			register(prepared.getApplicationContext().getBeanFactory());
		}
		else if (event instanceof ApplicationFailedEvent failed) {
			ConfigurableApplicationContext context = failed.getApplicationContext();
			// A context that started (a runner failed) is closed next, and its beans
			// are destroyed before the server: leave it to that close.
			if (!this.registered.get() || context == null || !context.isActive()) {
				close();
			}
		}
	}

	private void register(ConfigurableListableBeanFactory beanFactory) {
		beanFactory.registerSingleton(BEAN_NAME, this.server);
		if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
			// Disposable beans are destroyed in reverse order of registration, and no
			// other bean exists yet: this one goes last.
			registry.registerDisposableBean(BEAN_NAME, this::close);
			this.registered.set(true);
		}
	}

	private void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.server.close();
			logger.info("Stopped embedded " + this.server);
		}
	}

}
