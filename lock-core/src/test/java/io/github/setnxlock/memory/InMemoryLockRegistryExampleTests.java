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
package io.github.setnxlock.memory;

import java.time.Duration;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A unit test as an application would write it for its own code that takes a lock, with
 * no Redis: {@code docs/testing.md} shows this class.
 *
 * @author setnx-lock authors
 */
class InMemoryLockRegistryExampleTests {

	@Test
	void runsWhenNoOtherInstanceHoldsTheLock() throws InterruptedException {
		InvoiceRun invoiceRun = new InvoiceRun(new InMemoryLockRegistry());
		assertThat(invoiceRun.runOnce()).isTrue();
		assertThat(invoiceRun.runs()).isEqualTo(1);
	}

	@Test
	void skipsWhileAnotherInstanceHoldsTheLock() throws InterruptedException {
		InMemoryLockRegistry thisInstance = new InMemoryLockRegistry();
		InMemoryLockRegistry otherInstance = InMemoryLockRegistry.sharing(thisInstance);
		InvoiceRun invoiceRun = new InvoiceRun(thisInstance);
		LeasedLock heldElsewhere = otherInstance.obtain("invoice-run");
		heldElsewhere.lock();
		assertThat(invoiceRun.runOnce()).isFalse();
		heldElsewhere.unlock();
		assertThat(invoiceRun.runOnce()).isTrue();
		assertThat(invoiceRun.runs()).isEqualTo(1);
	}

	/**
	 * The code under test: a job that must not run on two instances at once.
	 */
	static class InvoiceRun {

		private final LockRegistry locks;

		private int runs;

		InvoiceRun(LockRegistry locks) {
			this.locks = locks;
		}

		boolean runOnce() throws InterruptedException {
			LeasedLock lock = this.locks.obtain("invoice-run");
			if (!lock.tryLock(Duration.ZERO)) {
				return false;
			}
			try {
				this.runs++;
				return true;
			}
			finally {
				lock.unlock();
			}
		}

		int runs() {
			return this.runs;
		}

	}

}
