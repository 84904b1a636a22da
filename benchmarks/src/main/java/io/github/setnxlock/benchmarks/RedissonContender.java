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

package io.github.setnxlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock}: without a lease its watchdog renews the lock, with one it
 * does not.
 *
 * @author setnx-lock authors
 */
final class RedissonContender implements Contender {

	private final RedissonClient client;

	private final boolean lease;

	private final String prefix;

	RedissonContender(Contenders.Server server, boolean lease) {
		this.prefix = server.unique("bench:redisson");
		this.client = client(server.host(), server.port());
		this.lease = lease;
	}

	static String name(boolean lease) {
		return lease ? "Redisson lease 30 s" : "Redisson watchdog";
	}

	/**
	 * Return a client with Redisson's defaults on one server, as every Redisson contender
	 * uses.
	 */
	static RedissonClient client(String host, int port) {
		Config config = new Config();
		config.useSingleServer().setAddress("redis://" + host + ":" + port);
		return Redisson.create(config);
	}

	@Override
	public String name() {
		return name(this.lease);
	}

	@Override
	public KeyLock lockFor(String key) {
		RLock lock = this.client.getLock(this.prefix + ":" + key);
		long leaseMillis = Contenders.LEASE.toMillis();
		return new KeyLock() {

			@Override
			public void lock() {
				if (RedissonContender.this.lease) {
					lock.lock(leaseMillis, TimeUnit.MILLISECONDS);
				}
				else {
					lock.lock();
				}
			}

			@Override
			public void unlock() {
				lock.unlock();
			}

		};
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
