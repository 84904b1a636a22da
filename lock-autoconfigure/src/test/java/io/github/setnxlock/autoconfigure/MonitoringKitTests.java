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

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.setnxlock.LeasedLock;
import io.github.setnxlock.LockRegistry;
import io.github.setnxlock.test.RedisNodes;
import io.github.setnxlock.test.RedisServer;
import io.github.setnxlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The monitoring kit ({@code monitoring/} at the repository's root) against what a real
 * application registers: an application with the starter and Spring Boot's Prometheus
 * registry takes, releases, waits for and loses locks on a real {@code redis-server}, and
 * a Redlock one fails a node; their scrapes must hold every metric the Grafana dashboard
 * and the Prometheus rules read, and every label and label value they match or group by.
 * {@link PrometheusRulesTests} has promtool check the rules.
 *
 * @author setnx-lock authors
 */
class MonitoringKitTests {

	static final Path KIT = Path.of("..", "monitoring").toAbsolutePath().normalize();

	static final Path RULES = KIT.resolve("prometheus/setnx-lock-rules.yml");

	static final Path DASHBOARD = KIT.resolve("grafana/setnx-lock-dashboard.json");

	/**
	 * Labels Prometheus gives each target, not in an application's scrape.
	 */
	private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

	/**
	 * The blackbox exporter's probe of the health endpoint, which the kit reads beside
	 * the application's meters.
	 */
	private static final Set<String> NOT_FROM_THE_APPLICATION = Set.of("probe_success");

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static Scrape scrape;

	@BeforeAll
	static void scrapeApplications() throws Exception {
		StringBuilder text = new StringBuilder();
		runner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.server().port(), "setnx.lock.lease-time=3s")
			.run((context) -> {
				LockRegistry registry = context.getBean(LockRegistry.class);
				PrometheusMeterRegistry meters = context.getBean(PrometheusMeterRegistry.class);
				// Taken, held past a renewal, released.
				LeasedLock lock = registry.obtain("kit:1", "Kit.run");
				lock.lock();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> meters.get("setnx.lock.renewals").tag("result", "renewed").counter().count() > 0);
				lock.unlock();
				// Waited for in vain.
				lock.lock();
				assertThat(CompletableFuture.supplyAsync(() -> registry.obtain("kit:1", "Kit.run").tryLock())
					.get(10, TimeUnit.SECONDS)).isFalse();
				lock.unlock();
				// Lost: the lease ended before the release.
				LeasedLock lost = registry.obtain("kit:2", "Kit.run");
				assertThat(lost.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
				Thread.sleep(300);
				assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lost::unlock);
				text.append(meters.scrape());
			});
		try (RedisNodes nodes = RedisNodes.start(3)) {
			List<String> urls = new ArrayList<>();
			for (RedisServer node : nodes.nodes()) {
				urls.add("redis://" + node.host() + ":" + node.port());
			}
			nodes.stop(2);
			runner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				// No Redis where spring.data.redis points: Redlock does not use it.
				.withPropertyValues("spring.data.redis.port=1", "setnx.lock.redlock.restart-delay=0s",
						"setnx.lock.redlock.nodes=" + String.join(",", urls))
				.run((context) -> {
					LeasedLock lock = context.getBean(LockRegistry.class).obtain("kit:3", "Kit.redlock");
					assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
					lock.unlock();
					PrometheusMeterRegistry meters = context.getBean(PrometheusMeterRegistry.class);
					// Told on the events thread, after the calls.
					await().atMost(Duration.ofSeconds(10))
						.until(() -> meters.scrape().contains("node=\"" + nodes.name(2) + "\""));
					text.append(meters.scrape());
				});
		}
		scrape = Scrape.parse(text.toString());
	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SetnxLockAutoConfiguration.class,
					SetnxLockMetricsAutoConfiguration.class, ObservationAutoConfiguration.class,
					MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
					PrometheusMetricsExportAutoConfiguration.class))
			// As docs/observability.md tells applications to configure.
			.withPropertyValues("management.metrics.tags.application=kit",
					"management.metrics.distribution.percentiles-histogram.setnx.lock.acquire=true",
					"management.metrics.distribution.percentiles-histogram.setnx.lock.hold=true",
					"management.metrics.distribution.percentiles-histogram.setnx.lock.acquire.active=false",
					"management.metrics.distribution.percentiles-histogram.setnx.lock.hold.active=false");
	}

	@Test
	void theScrapeCountsWhatTheApplicationsDid() {
		assertThat(scrape.value("setnx_lock_acquire_seconds_count", "name", "Kit.run", "result", "acquired"))
			.isEqualTo(3);
		assertThat(scrape.value("setnx_lock_acquire_seconds_count", "name", "Kit.run", "result", "timeout"))
			.isEqualTo(1);
		assertThat(scrape.value("setnx_lock_lost_total", "name", "Kit.run", "reason", "lease-ended")).isEqualTo(1);
		assertThat(scrape.value("setnx_lock_hold_seconds_count", "name", "Kit.run", "result", "lost")).isEqualTo(1);
		assertThat(scrape.value("setnx_lock_renewals_total", "name", "Kit.run", "result", "renewed")).isPositive();
		assertThat(scrape.value("setnx_lock_active", "name", "Kit.run")).isZero();
		assertThat(scrape.value("setnx_lock_node_failures_total", "reason", "error")).isPositive();
		assertThat(scrape.series("setnx_lock_acquire_seconds_count"))
			.allSatisfy((labels) -> assertThat(labels).containsEntry("application", "kit")
				.containsEntry("error", "none")
				.containsKeys("name", "protocol", "result"));
		assertThat(scrape.value("setnx_lock_acquire_seconds_count", "name", "Kit.redlock", "protocol", "redlock"))
			.isEqualTo(1);
		// Boot's meter observation handler's long-task timers, as docs/observability.md
		// names them: without buckets, as it tells applications.
		assertThat(scrape.value("setnx_lock_hold_active_seconds_count", "name", "Kit.run")).isZero();
		assertThat(scrape.series("setnx_lock_acquire_active_seconds_count")).isNotEmpty();
		assertThat(scrape.series("setnx_lock_acquire_active_seconds_bucket")).isEmpty();
		assertThat(scrape.series("setnx_lock_hold_active_seconds_bucket")).isEmpty();
		assertThat(scrape.series("setnx_lock_hold_seconds_bucket")).isNotEmpty();
	}

	@Test
	void everySeriesTheRulesReadIsInTheScrape() throws IOException {
		List<String> problems = new ArrayList<>();
		Set<String> recorded = new LinkedHashSet<>();
		for (Map<String, Object> rule : rules()) {
			if (rule.get("record") != null) {
				recorded.add((String) rule.get("record"));
			}
		}
		for (Map<String, Object> rule : rules()) {
			String at = "rule " + rule.getOrDefault("record", rule.get("alert"));
			problems.addAll(check(at, (String) rule.get("expr"), recorded));
		}
		assertThat(problems).isEmpty();
		assertThat(recorded).isNotEmpty();
	}

	@Test
	void everySeriesTheDashboardReadsIsInTheScrape() throws IOException {
		JsonNode dashboard = dashboard();
		List<String> problems = new ArrayList<>();
		int queries = 0;
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.path("targets")) {
				problems.addAll(check("panel '" + panel.get("title").asString() + "'", target.get("expr").asString(),
						Set.of()));
				queries++;
			}
		}
		for (JsonNode variable : dashboard.get("templating").get("list")) {
			if ("query".equals(variable.get("type").asString())) {
				problems.addAll(checkLabelValues(variable.get("query").get("query").asString()));
				queries++;
			}
		}
		assertThat(problems).isEmpty();
		assertThat(queries).isGreaterThan(20);
	}

	@Test
	void theDashboardReadsTheChosenDataSourceApplicationAndInstance() throws IOException {
		JsonNode dashboard = dashboard();
		List<String> variables = new ArrayList<>();
		dashboard.get("templating").get("list").forEach((variable) -> variables.add(variable.get("name").asString()));
		assertThat(variables).contains("datasource", "application", "instance");
		for (JsonNode panel : dashboard.get("panels")) {
			if (panel.get("type").asString().equals("row")) {
				continue;
			}
			assertThat(panel.get("datasource").get("uid").asString()).isEqualTo("${datasource}");
			for (JsonNode target : panel.get("targets")) {
				String expr = target.get("expr").asString();
				if (!expr.contains("probe_success")) {
					assertThat(expr).as(panel.get("title").asString())
						.contains("application=~\"$application\"", "instance=~\"$instance\"");
				}
			}
		}
	}

	@Test
	void everyAlertHasASeverityASummaryAndADescription() throws IOException {
		int alerts = 0;
		for (Map<String, Object> rule : rules()) {
			if (rule.get("alert") != null) {
				@SuppressWarnings("unchecked")
				Map<String, Object> labels = (Map<String, Object>) rule.get("labels");
				@SuppressWarnings("unchecked")
				Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
				assertThat(labels).as((String) rule.get("alert"))
					.extractingByKey("severity")
					.isIn("critical", "warning", "info");
				assertThat(annotations).as((String) rule.get("alert")).containsKeys("summary", "description");
				alerts++;
			}
		}
		assertThat(alerts).isGreaterThanOrEqualTo(4);
	}

	private List<String> check(String at, String expr, Set<String> recorded) {
		List<String> problems = new ArrayList<>();
		PromQl.Query query = PromQl.read(expr);
		Set<String> labelsOfQuery = new LinkedHashSet<>(TARGET_LABELS);
		for (PromQl.Selector selector : query.selectors()) {
			if (selector.metric().contains(":")) {
				if (!recorded.contains(selector.metric())) {
					problems.add(at + ": no rule records " + selector.metric());
				}
				continue;
			}
			if (NOT_FROM_THE_APPLICATION.contains(selector.metric())) {
				continue;
			}
			List<Map<String, String>> series = scrape.series(selector.metric());
			if (series.isEmpty()) {
				problems.add(at + ": " + selector.metric() + " is not in the scrape");
				continue;
			}
			series.forEach((labels) -> labelsOfQuery.addAll(labels.keySet()));
			for (PromQl.Matcher matcher : selector.matchers()) {
				if (TARGET_LABELS.contains(matcher.label()) || matcher.value().contains("$")) {
					continue;
				}
				// A negative matcher, too, must name a value that exists: a misspelt one
				// would let every series through.
				boolean found = series.stream().map((labels) -> labels.get(matcher.label())).anyMatch((value) -> {
					if (value == null) {
						return false;
					}
					return matcher.op().endsWith("~") ? value.matches(matcher.value()) : value.equals(matcher.value());
				});
				if (!found) {
					problems.add(at + ": no " + selector.metric() + " series has " + matcher.label() + matcher.op()
							+ "\"" + matcher.value() + "\"");
				}
			}
		}
		if (query.selectors().stream().noneMatch((selector) -> selector.metric().contains(":"))) {
			for (String label : query.grouping()) {
				if (!labelsOfQuery.contains(label)) {
					problems.add(at + ": groups by " + label + ", which no series it reads has");
				}
			}
		}
		return problems;
	}

	private List<String> checkLabelValues(String query) {
		// label_values(selector, label)
		assertThat(query).startsWith("label_values(").endsWith(")");
		String arguments = query.substring("label_values(".length(), query.length() - 1);
		int comma = arguments.lastIndexOf(',');
		String label = arguments.substring(comma + 1).trim();
		List<String> problems = new ArrayList<>(check("variable " + query, arguments.substring(0, comma), Set.of()));
		String metric = PromQl.read(arguments.substring(0, comma)).selectors().get(0).metric();
		if (!TARGET_LABELS.contains(label)
				&& scrape.series(metric).stream().noneMatch((labels) -> labels.containsKey(label))) {
			problems.add("variable " + query + ": no " + metric + " series has the label " + label);
		}
		return problems;
	}

	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> rules() throws IOException {
		try (InputStream in = Files.newInputStream(RULES)) {
			Map<String, Object> file = new Yaml().load(in);
			List<Map<String, Object>> rules = new ArrayList<>();
			for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
				rules.addAll((List<Map<String, Object>>) group.get("rules"));
			}
			return rules;
		}
	}

	private static JsonNode dashboard() throws IOException {
		return JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
	}

	/**
	 * The series of a scrape in Prometheus's text format, by metric name.
	 */
	record Scrape(Map<String, List<Map<String, String>>> byName, Map<Map<String, String>, Double> values) {

		static Scrape parse(String text) {
			Map<String, List<Map<String, String>>> byName = new HashMap<>();
			Map<Map<String, String>, Double> values = new HashMap<>();
			for (String line : text.split("\n")) {
				if (line.isBlank() || line.startsWith("#")) {
					continue;
				}
				int brace = line.indexOf('{');
				int space = line.lastIndexOf(' ');
				String name = line.substring(0, (brace >= 0) ? brace : space).trim();
				Map<String, String> labels = new TreeMap<>();
				if (brace >= 0) {
					int end = PromQl.readMatchers(line, brace + 1, (label, op, value) -> labels.put(label, value));
					space = line.indexOf(' ', end);
				}
				labels.put("__name__", name);
				values.put(labels, Double.parseDouble(line.substring(space + 1).trim().split(" ")[0]));
				Map<String, String> withoutName = new TreeMap<>(labels);
				withoutName.remove("__name__");
				byName.computeIfAbsent(name, (ignored) -> new ArrayList<>()).add(withoutName);
			}
			return new Scrape(byName, values);
		}

		List<Map<String, String>> series(String name) {
			return this.byName.getOrDefault(name, List.of());
		}

		/**
		 * Return the sum of the values of the series of a metric that have the given
		 * labels.
		 */
		double value(String name, String... labelsAndValues) {
			double sum = 0;
			boolean found = false;
			for (Map.Entry<Map<String, String>, Double> entry : this.values.entrySet()) {
				Map<String, String> labels = entry.getKey();
				boolean matches = name.equals(labels.get("__name__"));
				for (int i = 0; matches && i < labelsAndValues.length; i += 2) {
					matches = labelsAndValues[i + 1].equals(labels.get(labelsAndValues[i]));
				}
				if (matches) {
					sum += entry.getValue();
					found = true;
				}
			}
			assertThat(found).as("a series " + name + " " + List.of(labelsAndValues)).isTrue();
			return sum;
		}

	}

}
