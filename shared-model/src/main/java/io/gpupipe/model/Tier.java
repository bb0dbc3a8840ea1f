package io.gpupipe.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** A model tier: each has its own queue, model server and GPU capacity. */
public enum Tier {
    SMALL("small"),
    LARGE("large");

    private final String wireName;

    Tier(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The tier with this wire name, if any (case-sensitive, as in the API). */
    public static Optional<Tier> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }

    @JsonCreator
    static Tier fromJson(String name) {
        return fromWireName(name).orElseThrow(() -> new IllegalArgumentException("unknown tier: " + name));
    }
}
