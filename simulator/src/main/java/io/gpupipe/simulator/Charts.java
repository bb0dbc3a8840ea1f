package io.gpupipe.simulator;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** One PNG per trace: jobs waiting or in flight, active tasks and cumulative cost over time, a line per policy. */
final class Charts {
    private static final Color[] COLORS = {new Color(0xD62728), new Color(0xFF7F0E), new Color(0x1F77B4),
        new Color(0x2CA02C), new Color(0x9467BD)};

    /** Cost is drawn on a log axis (seed 001 spends 50× the others); zero shows as one cent. */
    private static final double MIN_DOLLARS = 0.01;

    private Charts() {
    }

    /** Writes {@code <dir>/<trace>.png} ({@code width} × {@code height}) and returns its path. */
    static Path write(Path dir, String trace, List<RunResult> results, int width, int height) {
        NumberAxis hours = new NumberAxis("hours after start");
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(hours);
        XYPlot jobs = subplot("jobs queued + in flight", results, Metric.JOBS);
        plot.add(jobs, 1);
        plot.add(subplot("tasks", results, Metric.TASKS), 1);
        plot.add(subplot("cumulative $ (log)", results, Metric.COST), 1);
        plot.setFixedLegendItems(jobs.getLegendItems());
        JFreeChart chart = new JFreeChart("trace '" + trace + "'", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(trace + ".png");
            ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart for " + trace, e);
        }
    }

    private enum Metric { JOBS, TASKS, COST }

    private static XYPlot subplot(String label, List<RunResult> results, Metric metric) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYStepRenderer renderer = new XYStepRenderer();
        for (int i = 0; i < results.size(); i++) {
            RunResult r = results.get(i);
            XYSeries series = new XYSeries(r.label(), false, true);
            for (Recording.Sample s : r.recording().samples()) {
                double value = switch (metric) {
                    case JOBS -> s.jobs();
                    case TASKS -> s.tasks();
                    case COST -> Math.max(s.cost(), MIN_DOLLARS);
                };
                series.add(s.at() / 3600, value);
            }
            data.addSeries(series);
            renderer.setSeriesPaint(i, COLORS[r.policy().ordinal() % COLORS.length]);
            renderer.setSeriesStroke(i, new BasicStroke(1.5f));
        }
        NumberAxis axis = metric == Metric.COST ? new LogarithmicAxis(label) : new NumberAxis(label);
        XYPlot plot = new XYPlot(data, null, axis, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }
}
