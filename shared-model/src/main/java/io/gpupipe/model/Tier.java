package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of a model tier: each tier has its own queue, model server and GPU capacity. Which tiers exist, and what
 * each one is, is data: {@link TierCatalogue} ({@code tiers.json}). This type only carries a well-formed name.
 */
public record Tier(String name) {
    /** Lower-case letters, digits and hyphens, starting with a letter: usable in queue, service and env names. */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,19}");

    public Tier {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tier name must match " + NAME.pattern() + ", got \"" + name + "\"");
        }
    }

    @JsonCreator
    public static Tier of(String name) {
        return new Tier(name);
    }

    @JsonValue
    public String wireName() {
        return name;
    }

    /** The name as it appears in environment variable names ({@code speech-hq} → {@code SPEECH_HQ}). */
    public String envName() {
        return name.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    }

    @Override
    public String toString() {
        return name;
    }
}
