package io.gpupipe.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpupipe.model.sizing.GpuShare;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one list of tiers ({@code io/gpupipe/model/tiers.json} in this jar): the router, worker, scaling metric,
 * local stack, CDK app and the SAM template's drift test all read it. Adding a tier is an entry here (see
 * docs/architecture.md, "Tiers"). Besides the tiers it holds the routing defaults: which tier each task goes to when
 * a request names none, and seed 001's escalation tier for long or large text jobs.
 */
public final class TierCatalogue {
    /** The bundled catalogue's classpath resource. */
    public static final String RESOURCE = "/io/gpupipe/model/tiers.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static volatile TierCatalogue bundled;

    private final Map<Tier, TierDefinition> tiers;
    private final Map<Task, Tier> defaultTiers;
    private final Tier escalationTier;
    private final Map<Tier, Double> gpuHourUsd;

    public TierCatalogue(List<TierDefinition> tiers, Map<Task, Tier> defaultTiers, Tier escalationTier) {
        this(tiers, defaultTiers, escalationTier, Map.of());
    }

    /**
     * A catalogue whose tiers in {@code gpuHourUsd} have a price: US dollars per GPU-hour, what usage answers estimate
     * a job's cost from (the estimate is the tier's GPUs x this price x the job's inference time).
     */
    public TierCatalogue(List<TierDefinition> tiers, Map<Task, Tier> defaultTiers, Tier escalationTier,
                         Map<Tier, Double> gpuHourUsd) {
        Map<Tier, TierDefinition> byName = new LinkedHashMap<>();
        Set<String> queues = new java.util.HashSet<>();
        for (TierDefinition tier : tiers) {
            if (byName.put(tier.tier(), tier) != null) {
                throw new IllegalArgumentException("tier " + tier.tier() + " is defined twice");
            }
            if (!queues.add(tier.queue())) {
                throw new IllegalArgumentException("tier " + tier.tier() + ": queue " + tier.queue()
                        + " is used by another tier");
            }
        }
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("the tier catalogue defines no tier");
        }
        Map<Task, Tier> defaults = new EnumMap<>(Task.class);
        for (Task task : Task.values()) {
            Tier tier = defaultTiers.get(task);
            if (tier == null) {
                throw new IllegalArgumentException("routing.default names no tier for task " + task.wireName());
            }
            TierDefinition definition = byName.get(tier);
            if (definition == null || !definition.serves(task)) {
                throw new IllegalArgumentException("routing.default." + task.wireName() + " = " + tier
                        + " is not a tier that serves " + task.wireName());
            }
            defaults.put(task, tier);
        }
        TierDefinition escalation = byName.get(Objects.requireNonNull(escalationTier, "escalationTier"));
        if (escalation == null || !escalation.serves(Task.GENERATE)) {
            throw new IllegalArgumentException("routing.escalation = " + escalationTier
                    + " is not a tier that serves generate");
        }
        this.tiers = Collections.unmodifiableMap(byName);
        this.defaultTiers = Collections.unmodifiableMap(defaults);
        this.escalationTier = escalationTier;
        gpuHourUsd.forEach((tier, price) -> {
            if (!byName.containsKey(tier) || price == null || !(price > 0) || price.isInfinite()) {
                throw new IllegalArgumentException("tier " + tier + ": gpuHourUsd must be a price > 0 of a tier of "
                        + "the catalogue, got " + price);
            }
        });
        this.gpuHourUsd = Map.copyOf(gpuHourUsd);
    }

    /** The catalogue shipped in this jar (read once). */
    public static TierCatalogue bundled() {
        TierCatalogue catalogue = bundled;
        if (catalogue == null) {
            try (InputStream in = TierCatalogue.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("classpath resource " + RESOURCE + " is missing");
                }
                catalogue = read(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + RESOURCE, e);
            }
            bundled = catalogue;
        }
        return catalogue;
    }

    /** Reads a catalogue document (the format of {@code tiers.json}). */
    public static TierCatalogue read(InputStream json) throws IOException {
        return fromJson(JSON.readTree(json));
    }

    /** Reads a catalogue document from text. */
    public static TierCatalogue parse(String json) {
        try {
            return fromJson(JSON.readTree(json));
        } catch (IOException e) {
            throw new IllegalArgumentException("tier catalogue is not JSON: " + e.getMessage(), e);
        }
    }

    private static TierCatalogue fromJson(JsonNode root) {
        List<TierDefinition> tiers = new ArrayList<>();
        Map<Tier, Double> prices = new LinkedHashMap<>();
        for (JsonNode node : required(root, "tiers", "catalogue")) {
            TierDefinition tier = tier(node);
            tiers.add(tier);
            gpuHourUsd(node, "tier " + tier.tier()).ifPresent(price -> prices.put(tier.tier(), price));
        }
        JsonNode routing = required(root, "routing", "catalogue");
        Map<Task, Tier> defaults = new EnumMap<>(Task.class);
        required(routing, "default", "routing").fields().forEachRemaining(e -> defaults.put(
                Task.fromWireName(e.getKey()).orElseThrow(() -> new IllegalArgumentException(
                        "routing.default: unknown task " + e.getKey())), Tier.of(e.getValue().asText())));
        return new TierCatalogue(tiers, defaults, Tier.of(required(routing, "escalation", "routing").asText()),
                prices);
    }

    private static TierDefinition tier(JsonNode node) {
        String name = required(node, "name", "tier").asText();
        String where = "tier " + name;
        Set<Task> serves = EnumSet.noneOf(Task.class);
        for (JsonNode task : required(node, "serves", where)) {
            serves.add(Task.fromWireName(task.asText()).orElseThrow(() -> new IllegalArgumentException(
                    where + ": serves names unknown task " + task.asText())));
        }
        String contract = required(node, "contract", where).asText();
        return new TierDefinition(Tier.of(name),
                required(node, "queue", where).asText(),
                contractOf(contract, where),
                serves,
                Duration.ofSeconds(required(node, "modelTimeoutSeconds", where).asLong()),
                Duration.ofSeconds(required(node, "visibilityTimeoutSeconds", where).asLong()),
                GpuShare.of(required(node, "gpus", where).asText()),
                required(node, "gpuMemoryMiB", where).asLong(),
                required(node, "taskCpu", where).asInt(),
                required(node, "taskMemoryMiB", where).asInt(),
                required(node, "maxTasks", where).asInt(),
                required(node, "backlogPerTask", where).asDouble(),
                required(node, "maxScaleOutStep", where).asInt(),
                Duration.ofMinutes(required(node, "scaleInAfterMinutes", where).asLong()),
                Duration.ofMinutes(required(node, "modelLoadGraceMinutes", where).asLong()),
                cacheByDefault(node, where));
    }

    /** Optional {@code cacheByDefault}: false when absent; anything but a JSON boolean is refused. */
    private static boolean cacheByDefault(JsonNode node, String where) {
        JsonNode value = node.get("cacheByDefault");
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException(where + ": cacheByDefault must be true or false, got " + value);
        }
        return value.booleanValue();
    }

    /** Optional {@code gpuHourUsd}: a JSON number (US dollars per GPU-hour); absent, the tier has no price. */
    private static Optional<Double> gpuHourUsd(JsonNode node, String where) {
        JsonNode value = node.get("gpuHourUsd");
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException(where + ": gpuHourUsd must be a number, got " + value);
        }
        return Optional.of(value.doubleValue());
    }

    private static ModelServerContract contractOf(String text, String where) {
        for (ModelServerContract contract : ModelServerContract.values()) {
            if (contract.name().toLowerCase(Locale.ROOT).equals(text)) {
                return contract;
            }
        }
        throw new IllegalArgumentException(where + ": contract must be one of text, speech, embedding; got \"" + text + "\"");
    }

    private static JsonNode required(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(where + ": " + field + " is required");
        }
        return value;
    }

    /** Every tier, in catalogue order. */
    public List<TierDefinition> tiers() {
        return List.copyOf(tiers.values());
    }

    /** Every tier name, in catalogue order. */
    public List<Tier> names() {
        return List.copyOf(tiers.keySet());
    }

    /** The tier named {@code name}, if the catalogue has one. */
    public Optional<Tier> find(String name) {
        return tiers.keySet().stream().filter(t -> t.wireName().equals(name)).findFirst();
    }

    /** The definition of {@code tier}; fails for a tier this catalogue does not have. */
    public TierDefinition get(Tier tier) {
        TierDefinition definition = tiers.get(tier);
        if (definition == null) {
            throw new IllegalArgumentException("unknown tier " + tier + "; configured tiers: " + describeNames());
        }
        return definition;
    }

    /** The tiers that serve {@code task}, in catalogue order. */
    public List<Tier> serving(Task task) {
        return tiers.values().stream().filter(t -> t.serves(task)).map(TierDefinition::tier).toList();
    }

    /**
     * Why {@code tier} takes no jobs of {@code task}, if it takes none: the one rule for a request's {@code route}
     * (router) and for a message on a tier's queue (worker). The reason starts with the tier's name, e.g. "small
     * cannot serve speech jobs; tiers serving speech: speech".
     */
    public Optional<String> refusal(Tier tier, Task task) {
        if (get(tier).serves(task)) {
            return Optional.empty();
        }
        return Optional.of(tier + " cannot serve " + task.wireName() + " jobs; tiers serving " + task.wireName()
                + ": " + String.join(", ", serving(task).stream().map(Tier::wireName).toList()));
    }

    /** Where a job of {@code task} goes when the routing table has no other reason. */
    public Tier defaultTier(Task task) {
        return defaultTiers.get(task);
    }

    /** Seed 001's "large" rows (long prompt, large maxTokens): the tier long text jobs escalate to. */
    public Tier escalationTier() {
        return escalationTier;
    }

    /** A copy with {@code tier} added at the end (or replacing the tier of that name). */
    public TierCatalogue withTier(TierDefinition tier) {
        Map<Tier, TierDefinition> copy = new LinkedHashMap<>(tiers);
        copy.put(tier.tier(), tier);
        return new TierCatalogue(List.copyOf(copy.values()), defaultTiers, escalationTier, gpuHourUsd);
    }

    /** A copy whose jobs of {@code task} go to {@code tier} by default (and, for text, escalate to {@code escalation}). */
    public TierCatalogue withRouting(Task task, Tier tier, Tier escalation) {
        Map<Task, Tier> defaults = new EnumMap<>(defaultTiers);
        defaults.put(task, tier);
        return new TierCatalogue(tiers(), defaults, escalation, gpuHourUsd);
    }

    /** The tier's price in US dollars per GPU-hour, when the catalogue gives one ({@code gpuHourUsd}). */
    public Optional<Double> gpuHourUsd(Tier tier) {
        return Optional.ofNullable(gpuHourUsd.get(tier));
    }

    /** The names joined with ", " (for messages). */
    public String describeNames() {
        return String.join(", ", tiers.keySet().stream().map(Tier::wireName).toList());
    }
}
