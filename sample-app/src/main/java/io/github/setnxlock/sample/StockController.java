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

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.setnxlock.sample.StockService.StockChange;

/**
 * HTTP access to {@link StockService}; the status code tells a client whether to retry
 * (503, busy) or not (409, out of stock or stale).
 *
 * @author setnx-lock authors
 */
@RestController
@RequestMapping("/stock/{sku}")
class StockController {

	private final StockService stock;

	private final StockLedger ledger;

	StockController(StockService stock, StockLedger ledger) {
		this.stock = stock;
		this.ledger = ledger;
	}

	@GetMapping
	StockLedger.Level level(@PathVariable String sku) {
		return this.ledger.level(sku);
	}

	@PutMapping
	ResponseEntity<StockChange> restock(@PathVariable String sku, @RequestParam long quantity) {
		return respond(this.stock.restock(sku, quantity));
	}

	@PostMapping("/reserve")
	ResponseEntity<StockChange> reserve(@PathVariable String sku, @RequestParam(defaultValue = "1") long quantity) {
		return respond(this.stock.reserve(sku, quantity));
	}

	@PostMapping("/reserve-reactive")
	Mono<ResponseEntity<StockChange>> reserveReactively(@PathVariable String sku,
			@RequestParam(defaultValue = "1") long quantity) {
		return this.stock.reserveReactively(sku, quantity).map(StockController::respond);
	}

	private static ResponseEntity<StockChange> respond(StockChange change) {
		HttpStatus status = switch (change.outcome()) {
			case RESERVED, RESTOCKED -> HttpStatus.OK;
			case INSUFFICIENT, STALE -> HttpStatus.CONFLICT;
			case BUSY -> HttpStatus.SERVICE_UNAVAILABLE;
		};
		return ResponseEntity.status(status).body(change);
	}

}
