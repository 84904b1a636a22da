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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Spring Data Redis clients for a test server, built the way an application builds them.
 *
 * @author setnx-lock authors
 */
public final class RedisConnections {

	private static final Duration DESTROY_LIMIT = Duration.ofSeconds(20);

	private static final Duration RECONNECT_LIMIT = Duration.ofSeconds(1);

	private RedisConnections() {
	}

	/**
	 * Create and start a Lettuce connection factory for the server; destroy it after use.
	 * @param server the server
	 * @param commandTimeout how long a command may take before the client gives up
	 * @return the started factory
	 */
	public static LettuceConnectionFactory create(RedisServer server, Duration commandTimeout) {
		return create(server.host(), server.port(), commandTimeout);
	}

	/**
	 * Create and start a Lettuce connection factory that reaches the server through a
	 * proxy; destroy it after use.
	 * @param proxy the proxy in front of the server
	 * @param commandTimeout how long a command may take before the client gives up
	 * @return the started factory
	 */
	public static LettuceConnectionFactory create(TcpProxy proxy, Duration commandTimeout) {
		return create("127.0.0.1", proxy.port(), commandTimeout);
	}

	/**
	 * Create and start a Lettuce connection factory for one Redlock node, reached
	 * directly or through a proxy, as the starter builds one: commands sent while its
	 * connection is down are refused at once rather than queued until it is back
	 * ({@code REJECT_COMMANDS}), while commands already sent when it broke are sent again
	 * on the next connection. Destroy it after use.
	 * @param host the server's (or the proxy's) host
	 * @param port its port
	 * @param commandTimeout how long a command may take before the client gives up
	 * @return the started factory
	 */
	public static LettuceConnectionFactory createRedlockNode(String host, int port, Duration commandTimeout) {
		ClientOptions options = ClientOptions.builder()
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.build();
		return start(new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).clientOptions(options).build()));
	}

	/**
	 * Create and start a Lettuce connection factory that signs in to the server as a
	 * Redis ACL user; destroy it after use.
	 * @param server the server
	 * @param commandTimeout how long a command may take before the client gives up
	 * @param username the ACL user
	 * @param password the user's password
	 * @return the started factory
	 */
	public static LettuceConnectionFactory create(RedisServer server, Duration commandTimeout, String username,
			String password) {
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(server.host(), server.port());
		standalone.setUsername(username);
		standalone.setPassword(password);
		return start(new LettuceConnectionFactory(standalone, client(commandTimeout)));
	}

	/**
	 * Create and start a Lettuce connection factory that finds the primary through the
	 * group's Sentinel, as {@code spring.data.redis.sentinel.*} does; destroy it after
	 * use. After a failover its connections reach the new primary on their next
	 * reconnection attempt. Lettuce spaces those attempts exponentially up to 30 s by
	 * default, so a failover that took a few seconds on a busy machine could leave a
	 * connection (the release subscription's among them) away for as long again: this
	 * client retries at least every second, as an application that counts its failover
	 * time configures it ({@code ClientResourcesBuilderCustomizer} in Spring Boot).
	 * @param group the Sentinel group
	 * @param commandTimeout how long a command may take before the client gives up
	 * @return the started factory
	 */
	public static LettuceConnectionFactory create(RedisSentinelGroup group, Duration commandTimeout) {
		RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration().master(RedisSentinelGroup.MASTER_NAME)
			.sentinel(group.sentinel().host(), group.sentinel().port());
		ClientResources resources = ClientResources.builder()
			.reconnectDelay(Delay.exponential(Duration.ofMillis(1), RECONNECT_LIMIT, 2, TimeUnit.MILLISECONDS))
			.build();
		return start(new LettuceConnectionFactory(sentinel,
				LettuceClientConfiguration.builder()
					.commandTimeout(commandTimeout)
					.clientResources(resources)
					.build()));
	}

	/**
	 * Create and start a Lettuce connection factory for the cluster, seeded with every
	 * primary, as {@code spring.data.redis.cluster.nodes} does, and refreshing its view
	 * of the cluster on failures and every second; destroy it after use.
	 * @param cluster the cluster
	 * @param commandTimeout how long a command may take before the client gives up
	 * @return the started factory
	 */
	public static LettuceConnectionFactory create(RedisClusterGroup cluster, Duration commandTimeout) {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration();
		cluster.nodes().forEach((node) -> configuration.clusterNode(node.host(), node.port()));
		// What spring.data.redis.lettuce.cluster.refresh.adaptive=true and .period=1s
		// configure: without a refresh the client keeps sending a failed primary's slots
		// to it.
		ClusterClientOptions options = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.enablePeriodicRefresh(Duration.ofSeconds(1))
				.build())
			.build();
		return start(new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).clientOptions(options).build()));
	}

	private static LettuceConnectionFactory create(String host, int port, Duration commandTimeout) {
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(host, port);
		return start(new LettuceConnectionFactory(standalone, client(commandTimeout)));
	}

	private static LettuceClientConfiguration client(Duration commandTimeout) {
		return LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build();
	}

	private static LettuceConnectionFactory start(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Destroy a factory, giving up after a while: Lettuce's client shutdown can wait
	 * forever on a future that never completes (lettuce issue 2278, seen here once in a
	 * test's teardown), and a hung teardown would hang the build. The shutdown runs on a
	 * daemon thread of its own; past the limit it is left to finish, or not, on its own.
	 * Client resources given to the factory (which the factory leaves alone) are shut
	 * down with it.
	 * @param factory the factory, a Lettuce or Jedis one
	 */
	public static void destroy(RedisConnectionFactory factory) {
		if (!(factory instanceof DisposableBean disposable)) {
			return;
		}
		ClientResources resources = (factory instanceof LettuceConnectionFactory lettuce)
				? lettuce.getClientConfiguration().getClientResources().orElse(null) : null;
		CompletableFuture<Void> destroyed = new CompletableFuture<>();
		Thread shutdown = new Thread(() -> {
			try {
				disposable.destroy();
				if (resources != null) {
					resources.shutdown(0, 2, TimeUnit.SECONDS).get();
				}
				destroyed.complete(null);
			}
			catch (Throwable ex) {
				destroyed.completeExceptionally(ex);
			}
		}, "redis-client-shutdown");
		shutdown.setDaemon(true);
		shutdown.start();
		try {
			destroyed.get(DESTROY_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			System.err.println("A Redis client did not shut down within " + DESTROY_LIMIT + "; left behind");
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Could not close the connection factory", ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Create a string template on a factory.
	 * @param factory the factory
	 * @return the template
	 */
	public static StringRedisTemplate template(RedisConnectionFactory factory) {
		return new StringRedisTemplate(factory);
	}

}
