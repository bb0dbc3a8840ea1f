package io.gpupipe.adapters;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Each catalogue tier's queue URL from a function's configuration map, checked the same way everywhere. */
public final class TierQueueUrls {
    private TierQueueUrls() {
    }

    /**
     * The URL of every tier of {@code tiers}, from {@code configured} (tier name → URL) read under the key
     * {@code configKey} (e.g. {@code gpupipe.router.queue-urls}); a tier without one, or a URL for no tier, stops the
     * start-up with a message naming the key and its environment variable.
     */
    public static Map<Tier, String> of(TierCatalogue tiers, Map<String, String> configured, String configKey) {
        String env = configKey.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT) + "_";
        Map<Tier, String> urls = new LinkedHashMap<>();
        for (Tier tier : tiers.names()) {
            String url = configured.get(tier.wireName());
            if (url == null || url.isBlank()) {
                throw new IllegalStateException(configKey + "." + tier.wireName() + " (" + env + tier.envName()
                        + ") is required: tier " + tier + " is in the catalogue");
            }
            urls.put(tier, url);
        }
        for (String name : configured.keySet()) {
            if (tiers.find(name).isEmpty()) {
                throw new IllegalStateException(configKey + "." + name + " names no tier of the catalogue ("
                        + tiers.describeNames() + ")");
            }
        }
        return urls;
    }
}
