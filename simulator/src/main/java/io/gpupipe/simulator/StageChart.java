package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/** The lone job's latency stage by stage, one horizontal bar per tier and variant, the goals as vertical lines. */
final class StageChart {
    private static final Color[] STAGE_COLORS = {new Color(0x9467BD), new Color(0xD62728), new Color(0xFF7F0E),
        new Color(0x8C564B), new Color(0x1F77B4), new Color(0x17BECF), new Color(0x2CA02C)};

    private StageChart() {
    }

    /** Writes {@code file} ({@code width} × {@code height} PNG) and returns it. */
    static Path write(ColdStartReport report, Platform platform, Path file, int width, int height) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Tier tier : platform.tiers().keySet()) {
            for (ColdStartReport.Variant variant : ColdStartReport.variants()) {
                if (Double.isInfinite(report.row("lone", tier, variant.label()).outcome().firstJobSeconds())) {
                    continue; // seed 001 never scales out for one job
                }
                String row = tier + " · " + variant.label();
                for (Stage.Span span : report.stages(tier, variant)) {
                    data.addValue(span.seconds() / 60, span.stage().label(), row);
                }
            }
        }
        StackedBarRenderer renderer = new StackedBarRenderer();
        renderer.setShadowVisible(false);
        renderer.setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
        for (int i = 0; i < Stage.values().length; i++) {
            renderer.setSeriesPaint(i, STAGE_COLORS[i % STAGE_COLORS.length]);
        }
        CategoryAxis rows = new CategoryAxis(null);
        rows.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        NumberAxis minutes = new NumberAxis("minutes from submission to the first result (lone job, tier at zero)");
        CategoryPlot plot = new CategoryPlot(data, rows, minutes, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        ColdStartReport.GOAL_SECONDS.forEach((tier, seconds) -> plot.addRangeMarker(goal(tier, seconds / 60)));
        JFreeChart chart = new JFreeChart("Cold start stage by stage (simulator, every figure sourced)",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static ValueMarker goal(String tier, double minutes) {
        ValueMarker marker = new ValueMarker(minutes, Color.DARK_GRAY, new BasicStroke(1.2f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
        marker.setLabel(tier + " goal " + Report.duration(minutes * 60));
        marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        marker.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        return marker;
    }
}
