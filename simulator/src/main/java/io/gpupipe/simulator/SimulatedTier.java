package io.gpupipe.simulator;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;

/**
 * The tiers the simulator models: seed 001's two text tiers, whose prices, load times and speeds {@link Platform}
 * holds. A closed set on purpose: simulating another tier needs its platform figures first (a compile error here).
 */
public enum SimulatedTier {
    SMALL("small"),
    LARGE("large");

    private final String name;

    SimulatedTier(String name) {
        this.name = name;
    }

    /** The tier's name in the catalogue. */
    public Tier tier() {
        return Tier.of(name);
    }

    /** The catalogue's definition (scaling ladder, max tasks) of this tier. */
    public TierDefinition definition() {
        return TierCatalogue.bundled().get(tier());
    }
}
