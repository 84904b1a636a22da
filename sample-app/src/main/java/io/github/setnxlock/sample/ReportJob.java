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

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.github.setnxlock.LockNotAcquiredException;
import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.annotation.OnLockFailure;

/**
 * A periodic report over all accounts that every instance of the application schedules
 * but only one runs each period, and that an operator can also start by hand.
 * <p>
 * The scheduled run makes one attempt at the lock ({@code waitTime = "0s"}) and skips the
 * period if another instance has it. After a run the lock stays taken for
 * {@code sample.jobs.report-hold-at-least}, so an instance whose schedule is a little
 * behind finds it taken instead of running the same period's report again. The manual run
 * shares the lock by its name; when the report is running, or has just run, it falls back
 * to answering with the latest report instead of failing.
 * <p>
 * The report and its run count live in the Redis hash {@code sample:report}, so the count
 * is the number of runs across all instances.
 *
 * @author setnx-lock authors
 */
@Component
public class ReportJob {

	/**
	 * The name of the lock the scheduled and the manual run share.
	 */
	static final String LOCK_NAME = "ReportJob.report";

	private static final String REPORT_KEY = "sample:report";

	private static final List<Object> FIELDS = List.of("runs", "lastRunAt", "lastRunBy", "lastTrigger", "accounts",
			"totalBalance");

	private final AccountService accounts;

	private final StringRedisTemplate redis;

	private final String instance = instanceName();

	ReportJob(AccountService accounts, StringRedisTemplate redis) {
		this.accounts = accounts;
		this.redis = redis;
	}

	/**
	 * Write the report, on the schedule, unless another instance holds the lock.
	 */
	@Scheduled(fixedRateString = "${sample.jobs.report-period}", initialDelayString = "${sample.jobs.report-period}")
	@DistributedLock(name = LOCK_NAME, waitTime = "0s", onFailure = OnLockFailure.SKIP,
			holdAtLeast = "${sample.jobs.report-hold-at-least}")
	public void scheduledRun() {
		write("schedule");
	}

	/**
	 * Write the report now, unless it is running or has just run.
	 * @return whether it ran, and the latest report
	 */
	@DistributedLock(name = LOCK_NAME, waitTime = "0s", onFailure = OnLockFailure.FALLBACK, fallback = "notRun")
	public Run runNow() {
		return new Run(true, write("manual"));
	}

	Run notRun(LockNotAcquiredException ex) {
		return new Run(false, latest());
	}

	/**
	 * Return the latest report.
	 * @return the report; all zeros before the first run
	 */
	public Report latest() {
		List<Object> values = this.redis.opsForHash().multiGet(REPORT_KEY, FIELDS);
		return new Report(number(values.get(0)), (String) values.get(1), (String) values.get(2), (String) values.get(3),
				number(values.get(4)), number(values.get(5)));
	}

	private Report write(String trigger) {
		AccountService.Totals totals = this.accounts.totals();
		// HINCRBY rather than a written count: should two runs ever overlap (a lease that
		// ended mid-run), both are still counted.
		this.redis.opsForHash()
			.putAll(REPORT_KEY,
					Map.of("lastRunAt", Instant.now().toString(), "lastRunBy", this.instance, "lastTrigger", trigger,
							"accounts", Long.toString(totals.accounts()), "totalBalance",
							Long.toString(totals.totalBalance())));
		this.redis.opsForHash().increment(REPORT_KEY, "runs", 1);
		return latest();
	}

	private static long number(Object value) {
		return (value != null) ? Long.parseLong(value.toString()) : 0;
	}

	private static String instanceName() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			host = "localhost";
		}
		return ProcessHandle.current().pid() + "@" + host;
	}

	/**
	 * The latest report.
	 *
	 * @param runs how many times the report has run, on all instances together
	 * @param lastRunAt when it last ran, or {@code null}
	 * @param lastRunBy the instance ({@code pid@host}) that ran it last, or {@code null}
	 * @param lastTrigger {@code schedule} or {@code manual}, or {@code null}
	 * @param accounts how many accounts have a balance
	 * @param totalBalance what they hold together
	 */
	public record Report(long runs, String lastRunAt, String lastRunBy, String lastTrigger, long accounts,
			long totalBalance) {

	}

	/**
	 * The answer to a manual run.
	 *
	 * @param ran whether this call ran the report
	 * @param report the latest report, this call's own when it ran
	 */
	public record Run(boolean ran, Report report) {

	}

}
