package io.gpupipe.model.usage;

import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The estimated cost of inference time, per tier: the job's inference seconds x the tier's GPUs per task x the tier's
 * price per GPU-hour from the catalogue ({@code gpuHourUsd} in tiers.json). An estimate, not a bill: it charges each
 * job the whole task's GPUs for its own inference time, so jobs that shared a GPU at once (continuous batching) are
 * each charged in full, and idle, start-up and model-load time is charged to no one.
 */
public final class CostEstimate {
    /** The basis, as every answer states it. */
    public static final String BASIS = "estimate: inference seconds x the tier's GPUs x its price per GPU-hour "
            + "(tier catalogue, gpuHourUsd); jobs sharing a GPU are each charged in full; not a bill";
    private static final BigDecimal MILLIS_PER_HOUR = BigDecimal.valueOf(3_600_000);
    private static final int SCALE = 6;

    /** US dollars per task-hour (GPUs x price per GPU-hour), of each tier that has a price. */
    private final Map<String, BigDecimal> perTaskHour;

    private CostEstimate(Map<String, BigDecimal> perTaskHour) {
        this.perTaskHour = Map.copyOf(perTaskHour);
    }

    /** The prices of {@code catalogue}'s tiers. */
    public static CostEstimate of(TierCatalogue catalogue) {
        Map<String, BigDecimal> prices = new LinkedHashMap<>();
        for (TierDefinition tier : catalogue.tiers()) {
            catalogue.gpuHourUsd(tier.tier()).ifPresent(price -> prices.put(tier.tier().wireName(),
                    BigDecimal.valueOf(price).multiply(BigDecimal.valueOf(tier.gpus().gpus()))));
        }
        return new CostEstimate(prices);
    }

    /** The estimated cost of {@code inferenceMs} on {@code tier}, empty when the tier has no price (or is none). */
    public Optional<BigDecimal> usd(String tier, long inferenceMs) {
        BigDecimal price = tier == null ? null : perTaskHour.get(tier);
        if (price == null) {
            return Optional.empty();
        }
        return Optional.of(price.multiply(BigDecimal.valueOf(inferenceMs)).divide(MILLIS_PER_HOUR, SCALE,
                RoundingMode.HALF_UP));
    }

    /** True when {@code tier} has a price. */
    public boolean prices(String tier) {
        return tier != null && perTaskHour.containsKey(tier);
    }
}
