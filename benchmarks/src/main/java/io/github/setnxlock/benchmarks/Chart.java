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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws a run's headline figures as an SVG of horizontal bars, one panel per scenario:
 * cycles per second relative to the raw floor for the uncontended scenarios (longer is
 * better), and the handoff p50 for the contended ones (shorter is better). setnx-lock's
 * bars are dark, the peers' light, the floor's grey.
 *
 * @author setnx-lock authors
 */
final class Chart {

	private static final int LABEL_WIDTH = 230;

	private static final int BAR_WIDTH = 500;

	private static final int VALUE_WIDTH = 70;

	private static final int ROW_HEIGHT = 18;

	private static final int PANEL_GAP = 34;

	private Chart() {
	}

	/**
	 * Draw the chart.
	 * @param report the run's figures
	 * @param caption what ran where, printed under the title
	 * @return the SVG document
	 */
	static String svg(Report report, String caption) {
		List<Panel> panels = new ArrayList<>();
		for (UncontendedScenario scenario : report.uncontended()) {
			panels.add(panel(scenario.title() + ": cycles/s × floor (longer is better)", scenario.rows(),
					UncontendedScenario.Row::contender, UncontendedScenario.Row::ratioToFloor, "%.2f×"));
		}
		for (ContendedScenario scenario : report.contended()) {
			panels.add(panel(scenario.title() + ": handoff p50 µs (shorter is better)", scenario.rows(),
					ContendedScenario.Row::contender, ContendedScenario.Row::handoffP50Micros, "%.0f"));
		}
		int width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH + 20;
		int height = 60;
		for (Panel panel : panels) {
			height += PANEL_GAP + panel.bars().size() * ROW_HEIGHT;
		}
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
				+ "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
		svg.append("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">setnx-lock benchmarks</text>\n");
		svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"40\" fill=\"#555\">%s</text>%n", escape(caption)));
		int y = 60;
		for (Panel panel : panels) {
			y += PANEL_GAP;
			svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>%n", y - 10,
					escape(panel.title())));
			double max = panel.bars().stream().mapToDouble(Bar::value).filter(Double::isFinite).max().orElse(1);
			for (Bar bar : panel.bars()) {
				double value = Double.isFinite(bar.value()) ? bar.value() : 0;
				int length = (int) Math.round(BAR_WIDTH * value / ((max > 0) ? max : 1));
				String fill = bar.name().startsWith("setnx-lock") ? "#1f4e79"
						: bar.name().equals(Contenders.FLOOR) ? "#888888" : "#9dc3e6";
				svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
						LABEL_WIDTH - 6, y + 13, escape(bar.name())));
				svg.append(
						String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
								LABEL_WIDTH, y + 2, Math.max(length, 1), ROW_HEIGHT - 4, fill));
				svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n",
						LABEL_WIDTH + Math.max(length, 1) + 4, y + 13, Double.isFinite(bar.value())
								? String.format(Locale.ROOT, panel.format(), bar.value()) : "n/a"));
				y += ROW_HEIGHT;
			}
		}
		return svg.append("</svg>\n").toString();
	}

	private static <R> Panel panel(String title, List<R> rows, java.util.function.Function<R, String> name,
			ToDoubleFunction<R> value, String format) {
		List<Bar> bars = new ArrayList<>();
		for (R row : rows) {
			bars.add(new Bar(name.apply(row), value.applyAsDouble(row)));
		}
		return new Panel(title, bars, format);
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

	private record Panel(String title, List<Bar> bars, String format) {

	}

	private record Bar(String name, double value) {

	}

}
