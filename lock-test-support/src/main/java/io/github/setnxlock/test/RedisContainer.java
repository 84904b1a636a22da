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
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A {@code redis:7.4} container, for machines with Docker
 * ({@code -Dsetnx.lock.test.redis=testcontainers}).
 * <p>
 * The container runs a shell loop that restarts {@code redis-server} unless a marker file
 * says it is down, so {@link #stop()} and {@link #restart()} keep the container, and with
 * it the mapped port the clients use. {@link #pause()} freezes the whole container, which
 * is what SIGSTOP does to a process.
 *
 * @author setnx-lock authors
 */
final class RedisContainer implements RedisServer {

	private static final String IMAGE = "redis:7.4";

	private static final String DOWN_MARKER = "/tmp/redis-down";

	private final GenericContainer<?> container;

	private RedisContainer(GenericContainer<?> container) {
		this.container = container;
	}

	static RedisContainer start(List<String> extraArguments) {
		String server = "redis-server --port 6379 --save '' --appendonly no --protected-mode no "
				+ String.join(" ", extraArguments);
		String loop = "while true; do if [ ! -f " + DOWN_MARKER + " ]; then " + server + "; else sleep 0.05; fi; done";
		GenericContainer<?> container = new GenericContainer<>(IMAGE).withExposedPorts(6379)
			.withCommand("sh", "-c", loop)
			.waitingFor(Wait.forLogMessage(".*Ready to accept connections.*", 1));
		container.start();
		return new RedisContainer(container);
	}

	@Override
	public String host() {
		return this.container.getHost();
	}

	@Override
	public int port() {
		return this.container.getMappedPort(6379);
	}

	@Override
	public Object execute(String... command) {
		return Resp.execute(host(), port(), 10_000, command);
	}

	@Override
	public void stop() {
		exec("touch " + DOWN_MARKER + "; redis-cli -p 6379 shutdown nosave || true");
	}

	@Override
	public void pause() {
		DockerClientFactory.instance().client().pauseContainerCmd(this.container.getContainerId()).exec();
	}

	@Override
	public void resume() {
		DockerClientFactory.instance().client().unpauseContainerCmd(this.container.getContainerId()).exec();
	}

	@Override
	public void restart() {
		stop();
		exec("rm -f " + DOWN_MARKER);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (System.nanoTime() - deadline < 0) {
			try {
				if ("PONG".equals(execute("PING"))) {
					return;
				}
			}
			catch (RuntimeException ex) {
				// Not up yet.
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		throw new IllegalStateException(
				"Redis in container " + this.container.getContainerId() + " did not come back within 15 s");
	}

	private void exec(String script) {
		try {
			ExecResult result = this.container.execInContainer("sh", "-c", script);
			if (result.getExitCode() != 0) {
				throw new IllegalStateException(
						"'" + script + "' failed in the Redis container: " + result.getStderr());
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run '" + script + "' in the Redis container", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.container.stop();
	}

	@Override
	public String toString() {
		return IMAGE + " container " + this.container.getContainerId();
	}

}
