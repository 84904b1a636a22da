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

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.setnxlock.sample.AccountService.Balance;

/**
 * HTTP access to {@link AccountService}, so the guarded and the unguarded deposit can be
 * hammered side by side with any load tool, or with {@code curl} in a loop.
 *
 * @author setnx-lock authors
 */
@RestController
@RequestMapping("/accounts/{accountId}")
class AccountController {

	private final AccountService accounts;

	AccountController(AccountService accounts) {
		this.accounts = accounts;
	}

	@PostMapping("/deposit")
	Balance deposit(@PathVariable String accountId, @RequestParam long amount) {
		return this.accounts.deposit(accountId, amount);
	}

	@PostMapping("/deposit-reactive")
	Mono<Balance> depositReactively(@PathVariable String accountId, @RequestParam long amount) {
		return this.accounts.depositReactively(accountId, amount);
	}

	@PostMapping("/deposit-unsafe")
	Balance depositUnsafe(@PathVariable String accountId, @RequestParam long amount) {
		return this.accounts.depositUnsafe(accountId, amount);
	}

	@GetMapping
	Balance balance(@PathVariable String accountId) {
		return this.accounts.balance(accountId);
	}

}
