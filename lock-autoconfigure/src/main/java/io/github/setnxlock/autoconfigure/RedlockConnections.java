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

package io.github.setnxlock.autoconfigure;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.setnxlock.redis.RedlockNode;

/**
 * The connections of a Redlock registry: one Lettuce connection factory per URL of
 * {@code setnx.lock.redlock.nodes}, on client resources shared by all of them (the
 * application's, else its own). Each node is named {@code host:port} (with {@code /db}
 * when not 0), never with its credentials.
 * <p>
 * A node that is down must count as failed at once rather than hold its calls: commands
 * to a node whose connection is lost are rejected instead of queued until it comes back
 * (Lettuce's default queues them), and each node's command timeout is the {@code timeout}
 * of its URL, else 2 s or half the lease if that is shorter, so a frozen node's answers
 * are given up well before a lease could end on them; connecting is bounded by the same
 * timeout. Nothing connects at start-up. The factories stop and start with the
 * application context, and closing them is bounded, since a Lettuce client's shutdown can
 * hang (lettuce issue 2278).
 *
 * @author setnx-lock authors
 */
final class RedlockConnections implements SmartLifecycle, DisposableBean {

	static final String NODES = "setnx.lock.redlock.nodes";

	private static final Log logger = LogFactory.getLog(RedlockConnections.class);

	private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);

	/** How long closing the connections may take before they are left behind. */
	private static final Duration CLOSE_LIMIT = Duration.ofSeconds(5);

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<RedlockNode> nodes = new ArrayList<>();

	private final ClientResources ownResources;

	/**
	 * Create the connections, without connecting.
	 * @param urls the URLs of the nodes
	 * @param lease the registry's lease, which a node's command timeout stays under
	 * @param resources the application's client resources, or {@code null} to create and
	 * own them
	 * @throws InvalidConfigurationPropertyValueException naming the URL that is not
	 * usable (with its credentials left out)
	 */
	RedlockConnections(List<String> urls, Duration lease, ClientResources resources) {
		List<RedisURI> uris = new ArrayList<>();
		Map<String, Integer> servers = new HashMap<>();
		for (int i = 0; i < urls.size(); i++) {
			String property = NODES + "[" + i + "]";
			RedisURI uri = parse(property, urls.get(i));
			// One server under two names (another database, upper case) is no
			// second node.
			Integer earlier = servers.putIfAbsent(uri.getHost().toLowerCase(Locale.ROOT) + ":" + uri.getPort(), i);
			if (earlier != null) {
				throw new InvalidConfigurationPropertyValueException(property, withoutCredentials(urls.get(i)),
						"The server of " + NODES + "[" + earlier
								+ "] is named again; Redlock needs independent masters.");
			}
			uris.add(uri);
		}
		this.ownResources = (resources != null) ? null : DefaultClientResources.create();
		ClientResources shared = (resources != null) ? resources : this.ownResources;
		Duration defaultTimeout = min(DEFAULT_COMMAND_TIMEOUT, lease.dividedBy(2));
		try {
			for (int i = 0; i < uris.size(); i++) {
				RedisURI uri = uris.get(i);
				Duration timeout = hasTimeout(urls.get(i)) ? uri.getTimeout() : defaultTimeout;
				LettuceConnectionFactory factory = new LettuceConnectionFactory(
						LettuceConnectionFactory.createRedisConfiguration(uri), client(uri, timeout, shared));
				this.factories.add(factory);
				factory.afterPropertiesSet();
				factory.start();
				this.nodes.add(new RedlockNode(name(uri), new StringRedisTemplate(factory)));
				if (timeout.compareTo(lease) >= 0) {
					logger.warn("The command timeout of Redlock node " + name(uri) + " (" + timeout
							+ ") is not shorter than the lock lease (" + lease + ", setnx.lock.lease-time)");
				}
			}
		}
		catch (RuntimeException ex) {
			destroy();
			throw ex;
		}
	}

	/**
	 * Return the nodes, in the order of their URLs.
	 * @return the nodes
	 */
	List<RedlockNode> nodes() {
		return List.copyOf(this.nodes);
	}

	private static LettuceClientConfiguration client(RedisURI uri, Duration timeout, ClientResources resources) {
		ClientOptions options = ClientOptions.builder()
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
			.build();
		return LettuceClientConfiguration.builder()
			.apply(uri)
			.commandTimeout(timeout)
			.clientResources(resources)
			.clientOptions(options)
			.build();
	}

	private static RedisURI parse(String property, String url) {
		if (url == null || url.isBlank()) {
			throw new InvalidConfigurationPropertyValueException(property, url,
					"A Redlock node URL must not be blank.");
		}
		String shown = withoutCredentials(url);
		String trimmed = url.trim();
		String scheme = trimmed.substring(0, Math.max(0, trimmed.indexOf("://")));
		if (!scheme.equals(RedisURI.URI_SCHEME_REDIS) && !scheme.equals(RedisURI.URI_SCHEME_REDIS_SECURE)) {
			throw new InvalidConfigurationPropertyValueException(property, shown,
					"A Redlock node is one Redis master, named by a redis:// or rediss:// URL, but the scheme was '"
							+ scheme + "'.");
		}
		RedisURI uri;
		try {
			// Java's URI parser takes an authority it cannot read as host and port for a
			// registry name and leaves the host out; Lettuce then falls back to
			// localhost.
			URI parsed = new URI(trimmed);
			if (parsed.getHost() == null) {
				throw new URISyntaxException(shown, "no host and port to read");
			}
			uri = RedisURI.create(trimmed);
		}
		catch (URISyntaxException | RuntimeException ex) {
			throw new InvalidConfigurationPropertyValueException(property, shown,
					"Not a Redis URL (redis://[user:password@]host:port[/db] or rediss:// for TLS): "
							+ withoutCredentials(String.valueOf(ex.getMessage())));
		}
		return uri;
	}

	/**
	 * Whether the URL sets the command timeout itself (Lettuce's default of 60 s is not
	 * one the URL chose).
	 */
	private static boolean hasTimeout(String url) {
		int query = url.indexOf('?');
		return query >= 0 && url.substring(query + 1).matches("(?i)(.*&)?timeout=.*");
	}

	static String name(RedisURI uri) {
		return uri.getHost() + ":" + uri.getPort() + ((uri.getDatabase() != 0) ? "/" + uri.getDatabase() : "");
	}

	/**
	 * Return a URL without the user and password it may hold, for messages.
	 */
	static String withoutCredentials(String url) {
		// Up to the last '@': a password may hold '@' and '/'.
		return url.replaceAll("(?<=://).*@", "***@");
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	@Override
	public void start() {
		this.factories.forEach(LettuceConnectionFactory::start);
	}

	@Override
	public void stop() {
		this.factories.forEach(LettuceConnectionFactory::stop);
	}

	/**
	 * Stop with Spring Data Redis's own connection factories (phase 0), after the web
	 * server's graceful shutdown and the beans that unlock on their way out.
	 */
	@Override
	public int getPhase() {
		return 0;
	}

	@Override
	public boolean isRunning() {
		return !this.factories.isEmpty() && this.factories.stream().allMatch(LettuceConnectionFactory::isRunning);
	}

	/**
	 * Close every node's client at once, and give up on those still closing after
	 * {@link #CLOSE_LIMIT}, so that one hung shutdown cannot hold up the application's.
	 */
	@Override
	public void destroy() {
		List<CompletableFuture<Void>> closing = new ArrayList<>();
		for (LettuceConnectionFactory factory : this.factories) {
			CompletableFuture<Void> closed = new CompletableFuture<>();
			Thread thread = new Thread(() -> {
				try {
					factory.destroy();
					closed.complete(null);
				}
				catch (RuntimeException ex) {
					closed.completeExceptionally(ex);
				}
			}, "setnx-lock-redlock-close");
			thread.setDaemon(true);
			thread.start();
			closing.add(closed);
		}
		try {
			CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
				.get(CLOSE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			logger.warn("Connections to Redlock nodes did not close within " + CLOSE_LIMIT + "; left behind");
		}
		catch (ExecutionException ex) {
			logger.warn("Could not close the connection to a Redlock node", ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.ownResources != null) {
			this.ownResources.shutdown();
		}
	}

}
