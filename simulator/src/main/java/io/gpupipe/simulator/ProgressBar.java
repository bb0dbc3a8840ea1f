package io.gpupipe.simulator;

import java.io.PrintStream;
import java.util.function.DoubleConsumer;

/** A one-line progress bar on stderr, redrawn only when it moves a step. */
final class ProgressBar implements DoubleConsumer {
    private static final int WIDTH = 20;
    private final PrintStream out;
    private final String label;
    private int drawn = -1;

    ProgressBar(PrintStream out, String label) {
        this.out = out;
        this.label = label;
    }

    @Override
    public void accept(double fraction) {
        int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * WIDTH);
        if (filled != drawn) {
            drawn = filled;
            out.print("\r" + label + " [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] "
                    + Math.round(fraction * 100) + "%");
            out.flush();
        }
    }

    void done() {
        out.print("\r" + " ".repeat(label.length() + WIDTH + 10) + "\r");
        out.flush();
    }
}
