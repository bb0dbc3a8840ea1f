package io.gpupipe.model.usage;

import java.util.Arrays;
import java.util.Optional;

/** How a usage answer is broken down ({@code groupBy}): by UTC day, by tier or by model. */
public enum UsageGrouping {
    DAY("day"),
    TIER("tier"),
    MODEL("model");

    private final String wireName;

    UsageGrouping(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The grouping of this wire name, if any (case-sensitive, as in the API). */
    public static Optional<UsageGrouping> fromWireName(String name) {
        return Arrays.stream(values()).filter(g -> g.wireName.equals(name)).findFirst();
    }

    /** The wire names joined with "|" (for messages). */
    public static String describe() {
        return String.join("|", Arrays.stream(values()).map(UsageGrouping::wireName).toList());
    }
}
