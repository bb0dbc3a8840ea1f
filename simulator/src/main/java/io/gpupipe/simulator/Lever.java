package io.gpupipe.simulator;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The cold-start levers (docs/cold-start.md), each a deploy option of the CDK app or SAM template. */
public enum Lever {
    /** The router invokes the scaling function on the first job of an idle tier, which sets the desired count. */
    WAKE("wake"),
    /** Weights staged in S3 and streamed into GPU memory at start (runai_streamer); the image carries no weights. */
    STREAM("stream"),
    /** The worker starts with the model server and admits work as soon as the model answers (no health-check wait). */
    READY("ready"),
    /** An EC2 capacity provider whose Auto Scaling group keeps a stopped, image-pre-pulled instance (warm pool). */
    WARM_POOL("warmpool");

    private final String label;

    Lever(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Parses a label or constant name. */
    public static Lever of(String text) {
        return Arrays.stream(values()).filter(l -> l.label.equalsIgnoreCase(text) || l.name().equalsIgnoreCase(text))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("unknown lever '" + text + "' ("
                        + Arrays.stream(values()).map(Lever::label).collect(Collectors.joining(", ")) + ")"));
    }

    /** "" for none, else "+wake+stream" in declaration order. */
    static String suffix(Set<Lever> levers) {
        return levers.stream().sorted().map(l -> "+" + l.label).collect(Collectors.joining());
    }

    /** Every lever. */
    static Set<Lever> all() {
        return EnumSet.allOf(Lever.class);
    }

    @Override
    public String toString() {
        return label.toLowerCase(Locale.ROOT);
    }
}
