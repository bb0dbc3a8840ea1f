package io.gpupipe.simulator;

import java.util.Objects;

/** One number of the platform model and where it comes from (a document, an issue, a seed, or "measured here"). */
public record Figure(double value, String source) {
    public Figure {
        Objects.requireNonNull(source, "source");
        if (Double.isNaN(value) || value < 0) {
            throw new IllegalArgumentException("a figure is a number >= 0, got " + value + " (" + source + ")");
        }
    }

    /** The same source with another value (an override from the command line). */
    public Figure withValue(double newValue) {
        return new Figure(newValue, "overridden (--set); was " + value + ": " + source);
    }
}
