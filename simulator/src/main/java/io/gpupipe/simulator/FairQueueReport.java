package io.gpupipe.simulator;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The noisy-neighbour case on one tier queue: caller A sends 10,000 jobs at once, caller B one job every 10 s while
 * A's backlog lasts; B's wait from send to receive under a standard queue (FIFO for everyone) and under a fair queue
 * (message group = owner). The consumers are four small-tier tasks holding their window of 20 messages each (80 in
 * flight), 5 s per job on average.
 */
final class FairQueueReport {
    static final int NOISY_JOBS = 10_000;
    static final double QUIET_INTERVAL_SECONDS = 10;
    static final int SLOTS = 80;
    static final double MEAN_SERVICE_SECONDS = 5;
    static final String NOISY = "A";
    static final String QUIET = "B";
    /** Waits below this show on the log axis at this value (a message taken the instant it arrives). */
    private static final double MIN_CHART_SECONDS = 0.01;

    private final Map<FairQueueSimulation.Delivery, List<FairQueueSimulation.Message>> runs;

    private FairQueueReport(Map<FairQueueSimulation.Delivery, List<FairQueueSimulation.Message>> runs) {
        this.runs = runs;
    }

    static FairQueueReport run(long seed) {
        FairQueueSimulation simulation = new FairQueueSimulation(SLOTS, MEAN_SERVICE_SECONDS, NoisyNeighbourRule.AWS,
                seed);
        List<FairQueueSimulation.Message> arrivals = arrivals();
        Map<FairQueueSimulation.Delivery, List<FairQueueSimulation.Message>> runs =
                new EnumMap<>(FairQueueSimulation.Delivery.class);
        for (FairQueueSimulation.Delivery delivery : FairQueueSimulation.Delivery.values()) {
            runs.put(delivery, simulation.run(arrivals, delivery));
        }
        return new FairQueueReport(runs);
    }

    /** A's burst at 0, then B every 10 s (from 10 s) until A's backlog would drain at full speed. */
    static List<FairQueueSimulation.Message> arrivals() {
        List<FairQueueSimulation.Message> arrivals = new ArrayList<>();
        for (int i = 0; i < NOISY_JOBS; i++) {
            arrivals.add(new FairQueueSimulation.Message(NOISY, 0, Double.NaN));
        }
        double drain = NOISY_JOBS * MEAN_SERVICE_SECONDS / SLOTS;
        for (double at = QUIET_INTERVAL_SECONDS; at <= drain; at += QUIET_INTERVAL_SECONDS) {
            arrivals.add(new FairQueueSimulation.Message(QUIET, at, Double.NaN));
        }
        return arrivals;
    }

    /** A tenant's waits (seconds), sorted. */
    double[] waits(FairQueueSimulation.Delivery delivery, String tenant) {
        return runs.get(delivery).stream().filter(m -> m.tenant().equals(tenant))
                .mapToDouble(FairQueueSimulation.Message::waitSeconds).sorted().toArray();
    }

    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "| delivery | B's jobs | B's wait p50 | B's wait p99 | A's wait p50 "
                + "| A's last job received |%n|---|---|---|---|---|---|%n"));
        for (FairQueueSimulation.Delivery delivery : FairQueueSimulation.Delivery.values()) {
            double[] quiet = waits(delivery, QUIET);
            double[] noisy = waits(delivery, NOISY);
            out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s |%n", delivery.label(),
                    quiet.length, seconds(RunResult.percentile(quiet, 50)), seconds(RunResult.percentile(quiet, 99)),
                    seconds(RunResult.percentile(noisy, 50)), seconds(noisy[noisy.length - 1])));
        }
        return out.toString();
    }

    private static String seconds(double value) {
        return value < 10 ? String.format(Locale.ROOT, "%.2f s", value) : String.format(Locale.ROOT, "%.0f s", value);
    }

    /** B's wait per job over time, one line per delivery order, on a log axis. */
    Path chart(Path file, int width, int height) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        Color[] colors = {new Color(0xD62728), new Color(0x2CA02C)};
        for (FairQueueSimulation.Delivery delivery : FairQueueSimulation.Delivery.values()) {
            XYSeries series = new XYSeries("B's wait, " + delivery.label(), false, true);
            runs.get(delivery).stream().filter(m -> m.tenant().equals(QUIET))
                    .forEach(m -> series.add(m.sentAt(), Math.max(m.waitSeconds(), MIN_CHART_SECONDS)));
            renderer.setSeriesPaint(data.getSeriesCount(), colors[delivery.ordinal() % colors.length]);
            renderer.setSeriesStroke(data.getSeriesCount(), new BasicStroke(1.5f));
            data.addSeries(series);
        }
        NumberAxis time = new NumberAxis(String.format(Locale.ROOT, "seconds after A's burst of %,d jobs", NOISY_JOBS));
        XYPlot plot = new XYPlot(data, time, new LogarithmicAxis("B's wait from send to receive, seconds (log)"),
                renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart("Quiet caller B behind noisy caller A (" + SLOTS + " consumer slots, "
                + (int) MEAN_SERVICE_SECONDS + " s per job)", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
